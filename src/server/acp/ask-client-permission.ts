import type { RequestPermissionRequest } from '../../../protocol/index.js';
import { diffContent } from '../../loop/tool-result-content.js';
import { SettledElsewhere, type PermissionAnswer, type PermissionAsker, type PermissionQuestionForClient } from '../../project/permission-asker.js';
import type { ClientConnection } from '../wire/client-connection.js';

type OptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
type Option = { optionId: OptionKind; name: string; kind: OptionKind };

/** ACP `PermissionOption`s for a question; the "always" labels say what would be remembered. */
function optionsFor(question: PermissionQuestionForClient): Option[] {
  const always = question.always ?? { allow: 'Always allow this call in this project', reject: 'Always reject this call in this project' };
  return [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    ...(always.allow ? [{ optionId: 'allow_always' as const, name: always.allow, kind: 'allow_always' as const }] : []),
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
    { optionId: 'reject_always', name: always.reject, kind: 'reject_always' },
  ];
}

/** The ACP request for a question, put to the clients of `root` (the session itself, or the one that started the sub-agent asking). */
function requestFor(question: PermissionQuestionForClient, root: string, options: Option[]): RequestPermissionRequest {
  return {
    sessionId: root,
    toolCall: {
      toolCallId: question.toolCallId,
      title: question.title,
      kind: question.kind,
      status: 'pending',
      rawInput: question.rawInput,
      // The proposed change, so the client can show its diff before the answer.
      ...(question.diff ? { content: diffContent(question.diff) } : {}),
      ...(question.reason || root !== question.sessionId
        ? {
            _meta: {
              agentd: {
                ...(question.reason ? { reason: question.reason } : {}),
                // A sub-agent's call: the client never saw its id, so say whose it is.
                ...(root !== question.sessionId ? { subagentSessionId: question.sessionId } : {}),
              },
            },
          }
        : {}),
    },
    options,
  };
}

/**
 * Asks through ACP `session/request_permission` every initialized client following the
 * session at once, so a question never waits on an editor nobody watches. The first valid
 * answer settles it: the other clients' requests are cancelled (`$/cancel_request`) and
 * every follower that opted in to events is told `permission_resolved` (so are they when
 * a client of another daemon answered first: SettledElsewhere). A client that
 * fails to answer (gone, or no such method) or names an option not offered is ignored;
 * with no valid answer at all the answer is `no_client` (the caller falls back to the
 * permission mode), or `invalidAnswer` saying what the first such client sent (the one
 * that sent the running prompt counts first).
 */
export function createClientAsker(
  clients: ReadonlySet<ClientConnection>,
  promptOrigin: (sessionId: string) => string | undefined,
  rootOf: (sessionId: string) => string = (id) => id,
): PermissionAsker {
  return async (question, signal) => {
    if (signal.aborted) return 'cancelled';
    const root = rootOf(question.sessionId);
    const origin = promptOrigin(root);
    const options = optionsFor(question);
    const candidates = [...clients]
      .filter((c) => c.initialized && !c.peer.closed && c.attached.has(root))
      .sort((a, b) => Number(b.id === origin) - Number(a.id === origin));
    if (candidates.length === 0) return 'no_client';
    const request = requestFor(question, root, options);
    const asks = candidates.map(() => new AbortController());
    const invalid: Array<string | undefined> = [];
    let stop: () => void = () => undefined;
    const answer = await new Promise<PermissionAnswer | undefined>((resolve) => {
      let unanswered = candidates.length;
      const ignored = (): void => {
        if (--unanswered === 0) resolve(undefined);
      };
      // Aborted: the turn stopped (cancelled), or a client of another daemon answered first (its answer).
      stop = () => resolve(withdrawnWith(signal.reason));
      signal.addEventListener('abort', stop, { once: true });
      candidates.forEach((client, index) => {
        client.peer.request('session/request_permission', request, { signal: asks[index]!.signal }).then(
          ({ outcome }) => {
            if (outcome.outcome === 'cancelled') return resolve('cancelled');
            const chosen = options.find((o) => o.optionId === outcome.optionId);
            if (chosen) return resolve(chosen.kind);
            invalid[index] = `client ${client.rpc.label} answered with optionId "${outcome.optionId}", which is not one of the options offered (${options.map((o) => o.optionId).join(', ')})`;
            ignored();
          },
          // This client cannot answer (gone, refused, or cancelled below); the others still may.
          ignored,
        );
      });
    });
    signal.removeEventListener('abort', stop);
    // Settled: whoever has not answered yet is told to drop the question.
    for (const ask of asks) ask.abort();
    if (answer === undefined) {
      const first = invalid.find((text) => text !== undefined);
      return first !== undefined ? { invalidAnswer: first } : 'no_client';
    }
    tellResolved(clients, root, question.toolCallId, answer as OptionKind | 'cancelled');
    return answer;
  };
}

/** The outcome clients are told of a question withdrawn by its signal: another daemon's client's answer, else `cancelled`. */
function withdrawnWith(reason: unknown): OptionKind | 'cancelled' {
  const answer = reason instanceof SettledElsewhere ? reason.answer : 'cancelled';
  return typeof answer === 'string' && answer !== 'no_client' ? answer : 'cancelled';
}

/** `permission_resolved` to every follower of the session that opted in to events. */
function tellResolved(clients: ReadonlySet<ClientConnection>, root: string, toolCallId: string, outcome: OptionKind | 'cancelled'): void {
  for (const client of clients) {
    if (!client.initialized || !client.wantsEvents || client.peer.closed || !client.attached.has(root)) continue;
    client.peer.notify('agentd/event', { sessionId: root, event: { type: 'permission_resolved', toolCallId, outcome } });
  }
}
