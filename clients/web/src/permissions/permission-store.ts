import { signal } from '@preact/signals';
import type { RequestPermissionRequest, RequestPermissionResponse } from '../../../../protocol/index.js';
import { announce } from '../shell/announcer.js';

/** A permission question the daemon asked this page and nobody has answered yet. */
export interface PermissionQuestion {
  sessionId: string;
  request: RequestPermissionRequest;
  answer(optionId: string): void;
}

/**
 * The open permission questions. The daemon asks every client following a session at once;
 * the question leaves the page when it is answered here, when the daemon cancels it (another
 * client answered first: `$/cancel_request` aborts the request), or when a
 * `permission_resolved` event says it was settled.
 */
export class PermissionStore {
  readonly questions = signal<readonly PermissionQuestion[]>([]);

  /** The `session/request_permission` handler: resolves with the user's choice, or cancelled when the request is withdrawn. */
  ask(request: RequestPermissionRequest, withdrawn: AbortSignal): Promise<RequestPermissionResponse> {
    return new Promise((resolve) => {
      const settle = (response: RequestPermissionResponse): void => {
        withdrawn.removeEventListener('abort', onWithdrawn);
        this.questions.value = this.questions.value.filter((open) => open !== question);
        resolve(response);
      };
      const onWithdrawn = (): void => settle({ outcome: { outcome: 'cancelled' } });
      const question: PermissionQuestion = {
        sessionId: request.sessionId,
        request,
        answer: (optionId) => settle({ outcome: { outcome: 'selected', optionId } }),
      };
      if (withdrawn.aborted) return onWithdrawn();
      withdrawn.addEventListener('abort', onWithdrawn, { once: true });
      this.questions.value = [...this.questions.value, question];
      announce(`Permission asked: ${request.toolCall.title ?? request.toolCall.toolCallId}`);
    });
  }

  /** Another client settled the question about this tool call: it closes here. */
  resolved(sessionId: string, toolCallId: string): void {
    const settled = this.questions.value.filter((open) => open.sessionId === sessionId && open.request.toolCall.toolCallId === toolCallId);
    if (settled.length === 0) return;
    this.questions.value = this.questions.value.filter((open) => !settled.includes(open));
    announce('A permission question was answered elsewhere');
  }
}
