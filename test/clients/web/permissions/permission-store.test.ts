import { describe, expect, it } from 'vitest';
import { PermissionStore } from '../../../../clients/web/src/permissions/permission-store.js';
import { announcement } from '../../../../clients/web/src/shell/announcer.js';
import type { RequestPermissionRequest } from '../../../../protocol/index.js';

describe('the permission questions', () => {
  const request: RequestPermissionRequest = {
    sessionId: 'ses_1',
    toolCall: { toolCallId: 'call_w', title: 'Write note.txt' },
    options: [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  };

  it('lists a question until it is answered, and answers with the chosen option', async () => {
    const store = new PermissionStore();
    const answer = store.ask(request, new AbortController().signal);
    expect(store.questions.value.map((q) => q.request.toolCall.title)).toEqual(['Write note.txt']);
    expect(announcement.value).toBe('Permission asked: Write note.txt');
    store.questions.value[0]!.answer('allow');
    expect(await answer).toEqual({ outcome: { outcome: 'selected', optionId: 'allow' } });
    expect(store.questions.value).toEqual([]);
  });

  it('closes a question the daemon withdraws (another client answered) with cancelled', async () => {
    const store = new PermissionStore();
    const withdrawn = new AbortController();
    const answer = store.ask(request, withdrawn.signal);
    withdrawn.abort();
    expect(await answer).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(store.questions.value).toEqual([]);
  });

  it('closes a question a permission_resolved event settles, and only that one', () => {
    const store = new PermissionStore();
    void store.ask(request, new AbortController().signal);
    void store.ask({ ...request, toolCall: { toolCallId: 'call_x', title: 'Run make' } }, new AbortController().signal);
    store.resolved('ses_1', 'call_w');
    expect(store.questions.value.map((q) => q.request.toolCall.toolCallId)).toEqual(['call_x']);
    expect(announcement.value).toBe('A permission question was answered elsewhere');
  });
});
