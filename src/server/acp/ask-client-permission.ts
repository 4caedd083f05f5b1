import { diffContent } from '../../loop/tool-result-content.js';
import type { PermissionAnswer, PermissionAsker, PermissionQuestionForClient } from '../../project/permission-asker.js';
import type { ClientConnection } from '../wire/client-connection.js';

type OptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

/** ACP `PermissionOption`s for a question; the "always" labels say what would be remembered. */
function optionsFor(question: PermissionQuestionForClient): Array<{ optionId: OptionKind; name: string; kind: OptionKind }> {
  const always = question.always ?? { allow: 'Always allow this call in this project', reject: 'Always reject this call in this project' };
  return [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    ...(always.allow ? [{ optionId: 'allow_always' as const, name: always.allow, kind: 'allow_always' as const }] : []),
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
    { optionId: 'reject_always', name: always.reject, kind: 'reject_always' },
  ];
}

/**
 * Asks through ACP `session/request_permission`: first the client that sent the
 * running prompt, then any other client following the session. A client that fails
 * to answer (gone, or no such method) or that names an option not offered is skipped;
 * with none left the answer is `no_client` (the caller falls back to the permission
 * mode), or `invalidAnswer` saying what the client sent.
 */
export function createClientAsker(
  clients: ReadonlySet<ClientConnection>,
  promptOrigin: (sessionId: string) => string | undefined,
  rootOf: (sessionId: string) => string = (id) => id,
): PermissionAsker {
  return async (question, signal) => {
    const root = rootOf(question.sessionId);
    const origin = promptOrigin(root);
    const options = optionsFor(question);
    const candidates = [...clients]
      .filter((c) => c.initialized && !c.peer.closed && c.attached.has(root))
      .sort((a, b) => Number(b.id === origin) - Number(a.id === origin));
    let invalid: string | undefined;
    for (const client of candidates) {
      if (signal.aborted) return 'cancelled';
      try {
        const response = await client.peer.request(
          'session/request_permission',
          {
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
          },
          { signal },
        );
        const { outcome } = response;
        if (outcome.outcome === 'cancelled') return 'cancelled';
        const chosen = options.find((o) => o.optionId === outcome.optionId);
        if (chosen) return chosen.kind as PermissionAnswer;
        // Not obeyed; the next client may still answer properly.
        invalid ??= `client ${client.rpc.label} answered with optionId "${outcome.optionId}", which is not one of the options offered (${options.map((o) => o.optionId).join(', ')})`;
      } catch {
        if (signal.aborted) return 'cancelled';
        // This client cannot answer; try the next one.
      }
    }
    return invalid ? { invalidAnswer: invalid } : 'no_client';
  };
}
