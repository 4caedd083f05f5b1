import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { PermissionPrompt } from '../../../../clients/web/src/permissions/permission-prompt.js';
import { PlanView } from '../../../../clients/web/src/session/plan-view.js';
import { PromptBox } from '../../../../clients/web/src/session/prompt-box.js';
import type { SessionActions } from '../../../../clients/web/src/session/session-actions.js';
import { ToolCallCard } from '../../../../clients/web/src/session/tool-call-card.js';
import { TranscriptView } from '../../../../clients/web/src/session/transcript-view.js';

const actions: SessionActions = {
  prompt: async () => undefined,
  steer: async () => undefined,
  followUp: async () => undefined,
  abort: async () => undefined,
  setMode: async () => undefined,
  setConfigOption: async () => ({ configOptions: [] }),
  exportAs: async () => ({ fileName: 'x.md', mimeType: 'text/markdown', content: '' }),
};

describe('the session view components', () => {
  it('shows Send when idle, and Steer, Follow-up and Stop while a turn runs; the box is labelled', () => {
    const idle = renderToString(h(PromptBox, { running: false, actions, onError: () => undefined }));
    expect(idle).toContain('<label for="prompt-text">Message</label>');
    expect(idle).toContain('>Send</button>');
    expect(idle).not.toContain('Steer');
    const running = renderToString(h(PromptBox, { running: true, actions, onError: () => undefined }));
    expect([...running.matchAll(/<button[^>]*>([^<]+)<\/button>/g)].map((m) => m[1])).toEqual(['Steer', 'Follow-up', 'Stop']);
  });

  it('renders a tool call with its status, output and diff, the model text escaped', () => {
    const html = renderToString(
      h(ToolCallCard, {
        call: {
          toolCallId: 'call_1',
          title: 'Edit <a.ts>',
          kind: 'edit',
          status: 'completed',
          content: [
            { type: 'diff', path: '/w/a.ts', oldText: 'one\ntwo', newText: 'one\nthree' },
            { type: 'content', content: { type: 'text', text: '<script>alert(1)</script>' } },
          ],
          locations: [],
          rawInput: { path: 'a.ts' },
          rawOutput: undefined,
        },
      }),
    );
    expect(html).toContain('aria-label="Tool call: Edit &lt;a.ts>"');
    expect(html).toContain('>done</span>');
    expect(html).toContain('<div class="diff-same">  one</div><div class="diff-del">- two</div><div class="diff-add">+ three</div>');
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(html).not.toContain('<script>');
  });

  it('keeps thoughts collapsed and messages in order', () => {
    const html = renderToString(
      h(TranscriptView, {
        items: [
          { kind: 'user', id: 'i0', text: 'hi', messageId: null },
          { kind: 'thought', id: 'i1', text: 'pondering', messageId: null },
          { kind: 'agent', id: 'i2', text: 'hello', messageId: null },
        ],
      }),
    );
    expect(html).toMatch(/aria-label="You".*hi.*<details class="thought"><summary>Thinking<\/summary>.*pondering.*aria-label="Agent".*hello/s);
    expect(html).not.toContain('<details class="thought" open');
  });

  it('offers every permission option as a button named by it', () => {
    const html = renderToString(
      h(PermissionPrompt, {
        question: {
          sessionId: 'ses_1',
          answer: () => undefined,
          request: {
            sessionId: 'ses_1',
            toolCall: { toolCallId: 'call_w', title: 'Write note.txt', rawInput: { path: 'note.txt' }, _meta: { agentd: { reason: 'writes a file' } } },
            options: [
              { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
              { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
              { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
            ],
          },
        },
      }),
    );
    expect(html).toContain('aria-label="Permission: Write note.txt"');
    expect(html).toContain('<h2>Allow Write note.txt?</h2><p>writes a file</p>');
    expect([...html.matchAll(/<button[^>]*>([^<]+)<\/button>/g)].map((m) => m[1])).toEqual(['Allow once', 'Always allow', 'Reject']);
  });
});

describe('the plan', () => {
  it('lists the plan with each task status spelled out for screen readers', () => {
    const html = renderToString(
      h(PlanView, {
        entries: [
          { content: 'Read the parser', priority: 'high', status: 'completed' },
          { content: 'Add the guard', priority: 'high', status: 'in_progress' },
          { content: 'Write a test', priority: 'medium', status: 'pending' },
        ],
      }),
    );
    expect([...html.matchAll(/<li class="plan-([a-z_]+)">(.*?)<\/li>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, '')])).toEqual([
      ['completed', '● Read the parser (completed)'],
      ['in_progress', '◐ Add the guard (in progress)'],
      ['pending', '○ Write a test (pending)'],
    ]);
  });

});
