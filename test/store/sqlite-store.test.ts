import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import type { SessionRecord, Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';

let dir: string;
let file: string;
let store: Store;
let clock: number;

/** Each store call that writes a timestamp gets the next second: deterministic ordering. */
function open(): Store {
  return openStore(file, { now: () => new Date(Date.UTC(2025, 0, 1) + clock++ * 1000) });
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
  file = path.join(dir, 'data', 'agentd.db');
  clock = 0;
  store = open();
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

function countRows(table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('sessions', () => {
  it('creates with defaults and reads back the same record after reopening', () => {
    const created = store.createSession({ id: 's1', cwd: '/work/a' });
    expect(created).toEqual({
      id: 's1',
      cwd: '/work/a',
      additionalDirectories: [],
      title: null,
      model: null,
      mode: 'build',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      totalCostUsd: 0,
      meta: {},
    });
    store.createSession({
      id: 's2',
      cwd: '/work/b',
      additionalDirectories: ['/work/lib'],
      title: 'Fix the build',
      model: 'anthropic/claude-sonnet-4-5',
      mode: 'plan',
      meta: { client: { name: 'zed' } },
    });
    store.close();
    store = open();
    expect(store.getSession('s1')).toEqual(created);
    expect(store.getSession('s2')).toMatchObject({
      additionalDirectories: ['/work/lib'],
      title: 'Fix the build',
      model: 'anthropic/claude-sonnet-4-5',
      mode: 'plan',
      meta: { client: { name: 'zed' } },
    });
    expect(store.getSession('missing')).toBeUndefined();
  });

  it('refuses a duplicate or empty id', () => {
    expect(storeError(() => store.createSession({ id: '', cwd: '/w' })).message).toBe(
      'session id must be a non-empty string, got ""',
    );
    store.createSession({ id: 's1', cwd: '/w' });
    const error = storeError(() => store.createSession({ id: 's1', cwd: '/w' }));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('session "s1" already exists');
  });

  it('updates the given fields, bumps updatedAt, and fails for an unknown session', () => {
    store.createSession({ id: 's1', cwd: '/w', title: 'old', meta: { a: 1 } });
    const updated = store.updateSession('s1', { title: null, mode: 'explore', meta: { b: 2 } });
    expect(updated).toMatchObject({ title: null, mode: 'explore', meta: { b: 2 }, model: null });
    expect(updated.updatedAt > updated.createdAt).toBe(true);
    const error = storeError(() => store.updateSession('nope', { title: 'x' }));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('session "nope" does not exist');
  });

  it('lists newest first in pages of 3, with a cwd filter', () => {
    // s0..s6, each created a second after the previous one; even ones in /even.
    for (let i = 0; i < 7; i++) store.createSession({ id: `s${i}`, cwd: i % 2 === 0 ? '/even' : '/odd' });
    // Touching s2 makes it the most recently updated.
    store.updateSession('s2', { title: 'touched' });

    const pages: string[][] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = store.listSessions({ limit: 3, ...(cursor === undefined ? {} : { cursor }) });
      pages.push(page.sessions.map((s) => s.id));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(pages).toEqual([['s2', 's6', 's5'], ['s4', 's3', 's1'], ['s0']]);

    const even = store.listSessions({ cwd: '/even', limit: 3 });
    expect(even.sessions.map((s) => s.id)).toEqual(['s2', 's6', 's4']);
    expect(even.nextCursor).not.toBeNull();
    const evenRest = store.listSessions({ cwd: '/even', limit: 3, cursor: even.nextCursor ?? '' });
    expect(evenRest).toEqual({ sessions: [expect.objectContaining({ id: 's0' })], nextCursor: null });

    expect(store.listSessions({}).sessions).toHaveLength(7);
    expect(store.listSessions({ cwd: '/nowhere' })).toEqual({ sessions: [], nextCursor: null });
  });

  it('breaks updatedAt ties by id so paging never skips or repeats', () => {
    store.close();
    store = openStore(file, { now: () => new Date('2025-01-01T00:00:00.000Z') });
    for (const id of ['b', 'd', 'a', 'c']) store.createSession({ id, cwd: '/w' });
    const first = store.listSessions({ limit: 2 });
    const second = store.listSessions({ limit: 2, cursor: first.nextCursor ?? '' });
    expect([...first.sessions, ...second.sessions].map((s: SessionRecord) => s.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(second.nextCursor).toBeNull();
  });

  it('names a bad cursor and a bad limit', () => {
    const cursorError = storeError(() => store.listSessions({ cursor: 'not-a-cursor' }));
    expect(cursorError.code).toBe('invalid_argument');
    expect(cursorError.message).toContain('invalid session list cursor "not-a-cursor"');
    const limitError = storeError(() => store.listSessions({ limit: 0 }));
    expect(limitError.message).toContain('limit must be a whole number >= 1, got 0');
  });

  it('caps the page size at 200', () => {
    for (let i = 0; i < 201; i++) store.createSession({ id: `s${String(i).padStart(3, '0')}`, cwd: '/w' });
    const page = store.listSessions({ limit: 1000 });
    expect(page.sessions).toHaveLength(200);
    expect(page.nextCursor).not.toBeNull();
    expect(store.listSessions({}).sessions).toHaveLength(50);
  });

  it('deletes a session with its turns and messages', () => {
    store.createSession({ id: 's1', cwd: '/w' });
    store.createSession({ id: 's2', cwd: '/w' });
    for (const id of ['s1', 's2']) {
      store.startTurn(id, `${id}-t1`);
      store.appendMessage({ sessionId: id, turnId: `${id}-t1`, role: 'user', content: [{ type: 'text', text: 'hi' }] });
    }
    expect(store.deleteSession('s1')).toBe(true);
    expect(store.deleteSession('s1')).toBe(false);
    expect(store.getSession('s1')).toBeUndefined();
    expect(store.listMessages('s1')).toEqual([]);
    expect(store.listTurns('s1')).toEqual([]);
    expect(countRows('messages')).toBe(1);
    expect(countRows('turns')).toBe(1);
    expect(store.listMessages('s2')).toHaveLength(1);
  });
});

describe('turns', () => {
  it('starts, ends and lists turns in order', () => {
    store.createSession({ id: 's1', cwd: '/w' });
    const t1 = store.startTurn('s1', 't1');
    expect(t1).toEqual({
      id: 't1',
      sessionId: 's1',
      status: 'running',
      startedAt: '2025-01-01T00:00:01.000Z',
      endedAt: null,
      error: null,
    });
    store.endTurn('t1', 'end_turn');
    store.startTurn('s1', 't2');
    store.endTurn('t2', 'error', 'provider returned 500');
    expect(store.listTurns('s1')).toEqual([
      { ...t1, status: 'end_turn', endedAt: '2025-01-01T00:00:02.000Z' },
      {
        id: 't2',
        sessionId: 's1',
        status: 'error',
        startedAt: '2025-01-01T00:00:03.000Z',
        endedAt: '2025-01-01T00:00:04.000Z',
        error: 'provider returned 500',
      },
    ]);
  });

  it('gives clear errors for an unknown session, a reused id and a double end', () => {
    expect(storeError(() => store.startTurn('nope', 't1')).message).toContain('session "nope" does not exist');
    store.createSession({ id: 's1', cwd: '/w' });
    store.startTurn('s1', 't1');
    expect(storeError(() => store.startTurn('s1', 't1')).code).toBe('conflict');
    expect(storeError(() => store.endTurn('t9', 'end_turn')).message).toContain('turn "t9" does not exist');
    store.endTurn('t1', 'cancelled');
    const twice = storeError(() => store.endTurn('t1', 'end_turn'));
    expect(twice.code).toBe('conflict');
    expect(twice.message).toContain('already ended with status "cancelled"');
    expect(countRows('turns')).toBe(1);
  });

  it('marks running turns interrupted on recovery, once', () => {
    store.createSession({ id: 's1', cwd: '/w' });
    store.startTurn('s1', 'done');
    store.endTurn('done', 'end_turn');
    store.startTurn('s1', 'running');
    store.close();
    store = open();
    const recovered = store.recoverInterruptedTurns();
    expect(recovered).toEqual([
      expect.objectContaining({ id: 'running', status: 'interrupted', error: expect.stringContaining('stopped') }),
    ]);
    expect(recovered[0]?.endedAt).not.toBeNull();
    expect(store.recoverInterruptedTurns()).toEqual([]);
    expect(store.listTurns('s1').map((t) => t.status)).toEqual(['end_turn', 'interrupted']);
  });
});

describe('messages', () => {
  it('appends in seq order, parses JSON columns and adds cost to the session', () => {
    store.createSession({ id: 's1', cwd: '/w' });
    store.startTurn('s1', 't1');
    const user = store.appendMessage({
      sessionId: 's1',
      turnId: 't1',
      role: 'user',
      content: [{ type: 'text', text: 'hello' }],
    });
    const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 0, reasoningTokens: 1 };
    const assistant = store.appendMessage({
      id: 'm-assistant',
      sessionId: 's1',
      turnId: 't1',
      role: 'assistant',
      content: [{ type: 'tool_call', id: 'c1', name: 'read', args: { path: 'a.txt' } }],
      status: 'interrupted',
      model: 'openai/gpt-4.1',
      usage,
      costUsd: 0.25,
      meta: { stopReason: 'cancelled' },
    });
    store.appendMessage({ sessionId: 's1', turnId: 't1', role: 'assistant', content: [], costUsd: 0.5 });

    expect(user).toMatchObject({
      seq: 1,
      sessionId: 's1',
      turnId: 't1',
      role: 'user',
      status: 'complete',
      model: null,
      usage: null,
      costUsd: null,
      meta: null,
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(assistant).toEqual({
      seq: 2,
      id: 'm-assistant',
      sessionId: 's1',
      turnId: 't1',
      role: 'assistant',
      content: [{ type: 'tool_call', id: 'c1', name: 'read', args: { path: 'a.txt' } }],
      status: 'interrupted',
      model: 'openai/gpt-4.1',
      usage,
      costUsd: 0.25,
      meta: { stopReason: 'cancelled' },
      createdAt: '2025-01-01T00:00:03.000Z',
    });
    store.close();
    store = open();
    expect(store.listMessages('s1')).toEqual([user, assistant, expect.objectContaining({ seq: 3 })]);
    expect(store.getSession('s1')).toMatchObject({ totalCostUsd: 0.75, updatedAt: '2025-01-01T00:00:04.000Z' });
  });

  it('writes nothing when the session is unknown', () => {
    const error = storeError(() => store.appendMessage({ sessionId: 'nope', turnId: 't', role: 'user', content: [] }));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('session "nope" does not exist');
    expect(countRows('messages')).toBe(0);
  });

  it('rolls the message back when updating the session fails after the insert', () => {
    store.createSession({ id: 's1', cwd: '/w' });
    store.appendMessage({ sessionId: 's1', turnId: 't', role: 'user', content: [], costUsd: 1 });
    // A second connection installs a trigger that makes the session update (the last
    // statement of appendMessage) fail, after the message row was inserted.
    const other = new Database(file);
    other.exec(`CREATE TRIGGER fail_cost BEFORE UPDATE OF total_cost_usd ON sessions
                WHEN NEW.total_cost_usd > 5 BEGIN SELECT RAISE(ABORT, 'cost update refused'); END`);
    other.close();

    expect(() =>
      store.appendMessage({ sessionId: 's1', turnId: 't', role: 'assistant', content: [], costUsd: 10 }),
    ).toThrow(/cost update refused/);
    expect(store.listMessages('s1').map((m) => m.seq)).toEqual([1]);
    expect(store.getSession('s1')?.totalCostUsd).toBe(1);
    // The next append still gets the next seq: nothing half-written is left behind.
    expect(store.appendMessage({ sessionId: 's1', turnId: 't', role: 'user', content: [] }).seq).toBe(2);
  });

  it('rejects content that is not an array, a bad cost, non-JSON data and a reused id', () => {
    store.createSession({ id: 's1', cwd: '/w' });
    const base = { sessionId: 's1', turnId: 't', role: 'user' as const, content: [] };
    expect(storeError(() => store.appendMessage({ ...base, content: 'hi' as unknown as unknown[] })).message).toContain(
      'content must be an array',
    );
    expect(storeError(() => store.appendMessage({ ...base, costUsd: -1 })).message).toContain(
      'costUsd must be a finite number >= 0, got -1',
    );
    expect(storeError(() => store.appendMessage({ ...base, meta: { n: 1n } })).message).toMatch(
      /^meta cannot be stored as JSON/,
    );
    store.appendMessage({ ...base, id: 'm1' });
    expect(storeError(() => store.appendMessage({ ...base, id: 'm1' })).message).toContain('message "m1" already exists');
    expect(store.listMessages('s1')).toHaveLength(1);
  });
});

describe('addSessionCost', () => {
  it('adds a cost spent outside the messages (MCP sampling) to the session total, and refuses an unknown session', () => {
    store.createSession({ id: 's-cost', cwd: '/w', additionalDirectories: [], meta: {} });
    store.addSessionCost('s-cost', 0.25);
    store.addSessionCost('s-cost', 0.5);
    expect(store.getSession('s-cost')!.totalCostUsd).toBeCloseTo(0.75, 12);
    expect(() => store.addSessionCost('missing', 1)).toThrow(StoreError);
  });
});
