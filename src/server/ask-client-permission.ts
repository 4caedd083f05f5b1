import type { PermissionAnswer, PermissionAsker } from '../session/permission-asker.js';
import type { ClientConnection } from './client-connection.js';

const OPTIONS = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow in this project', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject in this project', kind: 'reject_always' },
] as const;

/**
 * Asks through ACP `session/request_permission`: first the client that sent the
 * running prompt, then any other client following the session. A client that fails
 * to answer (gone, or no such method) is skipped; with none left the answer is
 * `no_client` and the caller falls back to the permission mode.
 */
export function createClientAsker(
  clients: ReadonlySet<ClientConnection>,
  promptOrigin: (sessionId: string) => string | undefined,
  rootOf: (sessionId: string) => string = (id) => id,
): PermissionAsker {
  return async (question, signal) => {
    const root = rootOf(question.sessionId);
    const origin = promptOrigin(root);
    const candidates = [...clients]
      .filter((c) => c.initialized && !c.rpc.closed && c.attached.has(root))
      .sort((a, b) => Number(b.id === origin) - Number(a.id === origin));
    for (const client of candidates) {
      if (signal.aborted) return 'cancelled';
      try {
        const response = (await client.rpc.request(
          'session/request_permission',
          {
            sessionId: root,
            toolCall: {
              toolCallId: question.toolCallId,
              title: question.title,
              kind: question.kind,
              status: 'pending',
              rawInput: question.rawInput,
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
            options: OPTIONS,
          },
          { signal },
        )) as { outcome?: { outcome?: string; optionId?: string } };
        const outcome = response?.outcome;
        if (outcome?.outcome === 'cancelled') return 'cancelled';
        const chosen = OPTIONS.find((o) => o.optionId === outcome?.optionId);
        if (chosen) return chosen.kind as PermissionAnswer;
      } catch {
        if (signal.aborted) return 'cancelled';
        // This client cannot answer; try the next one.
      }
    }
    return 'no_client';
  };
}
