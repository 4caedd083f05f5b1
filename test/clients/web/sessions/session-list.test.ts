import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { applySessionEvent } from '../../../../clients/web/src/sessions/apply-session-event.js';
import { filterSessions, projectsOf } from '../../../../clients/web/src/sessions/filter-sessions.js';
import { SessionsTable } from '../../../../clients/web/src/sessions/sessions-table.js';
import type { SessionOverview } from '../../../../protocol/index.js';

const session = (sessionId: string, fields: Partial<SessionOverview> = {}): SessionOverview => ({
  sessionId,
  cwd: '/w/engine',
  title: `Session ${sessionId}`,
  state: 'idle',
  mode: 'build',
  model: null,
  costUsd: 0,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  live: false,
  ...fields,
});

describe('the session list', () => {
  it('takes a changed session in at its place by activity, replaces a known one, and drops a removed one', () => {
    const a = session('a', { updatedAt: '2026-11-27T10:00:00.000Z' });
    const b = session('b', { updatedAt: '2026-11-27T11:00:00.000Z' });
    let list = applySessionEvent([b, a], { type: 'session_changed', session: session('c', { updatedAt: '2026-11-27T10:30:00.000Z' }) });
    expect(list.map((s) => s.sessionId)).toEqual(['b', 'c', 'a']);
    list = applySessionEvent(list, { type: 'session_changed', session: { ...a, state: 'running', updatedAt: '2026-11-27T12:00:00.000Z' } });
    expect(list.map((s) => [s.sessionId, s.state])).toEqual([['a', 'running'], ['b', 'idle'], ['c', 'idle']]);
    expect(applySessionEvent(list, { type: 'session_removed', sessionId: 'b' }).map((s) => s.sessionId)).toEqual(['a', 'c']);
  });

  it('filters by project, state and title (any case), each only when set', () => {
    const list = [
      session('a', { title: 'Fix the Parser', cwd: '/w/engine', state: 'running' }),
      session('b', { title: 'parser docs', cwd: '/w/site', state: 'idle' }),
      session('c', { title: null, cwd: '/w/engine', state: 'waiting_permission' }),
    ];
    const ids = (filter: Parameters<typeof filterSessions>[1]) => filterSessions(list, filter).map((s) => s.sessionId);
    expect(ids({ cwd: '', state: '', query: '' })).toEqual(['a', 'b', 'c']);
    expect(ids({ cwd: '', state: '', query: ' PARSER ' })).toEqual(['a', 'b']);
    expect(ids({ cwd: '/w/engine', state: '', query: 'parser' })).toEqual(['a']);
    expect(ids({ cwd: '', state: 'waiting_permission', query: '' })).toEqual(['c']);
    expect(projectsOf(list)).toEqual(['/w/engine', '/w/site']);
  });
});

describe('the sessions table', () => {
  it('shows each session with its project, state in words, agent, model, cost and last activity; the title links to it', () => {
    const html = renderToString(
      h(SessionsTable, {
        now: Date.parse('2026-11-27T10:05:00.000Z'),
        sessions: [
          session('ses_a', { title: 'Fix <the> parser', state: 'waiting_permission', pendingPermission: { toolCallId: 'call_w', title: 'Write a.ts' }, model: 'anthropic/claude-sonnet-4-5', costUsd: 0.0042 }),
          session('ses_b', { title: null, state: 'failed', lastError: 'ProviderError: 529 overloaded' }),
        ],
      }),
    );
    const rows = [...html.matchAll(/<tr data-session-id="([^"]+)">(.*?)<\/tr>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')]);
    expect(rows).toEqual([
      ['ses_a', '|Fix &lt;the> parser|Asks: Write a.ts|engine|waiting for permission|build|anthropic/claude-sonnet-4-5|$0.0042|5 min ago|'],
      ['ses_b', '|Untitled session|ProviderError: 529 overloaded|engine|failed|build|default|$0.00|5 min ago|'],
    ]);
    expect(html).toContain('<a href="#/session/ses_a">');
    expect(renderToString(h(SessionsTable, { now: 0, sessions: [] }))).toBe('<p class="empty">No sessions match.</p>');
  });
});
