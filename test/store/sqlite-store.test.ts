import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionRecord, Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

async function storeError(fn: () => Promise<unknown>): Promise<StoreError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

// Every test runs on each implementation of Store, on a fresh empty database.
describe.each(STORE_IMPLEMENTATIONS)('$name store', (implementation) => {
  if (!implementation.available()) return;
  let database: StoreDatabase;
  let store: Store;
  let clock: number;

  /** Each store call that writes a timestamp gets the next second: deterministic ordering. */
  function open(): Promise<Store> {
    return database.open({ now: () => new Date(Date.UTC(2025, 0, 1) + clock++ * 1000) });
  }

  beforeEach(async () => {
    database = await implementation.create();
    clock = 0;
    store = await open();
  });
  afterEach(async () => {
    await store.close();
    await database.dispose();
  });

  describe('sessions', () => {
    it('creates with defaults and reads back the same record after reopening', async () => {
      const created = await store.createSession({ id: 's1', cwd: '/work/a' });
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
      await store.createSession({
        id: 's2',
        cwd: '/work/b',
        additionalDirectories: ['/work/lib'],
        title: 'Fix the build',
        model: 'anthropic/claude-sonnet-4-5',
        mode: 'plan',
        meta: { client: { name: 'zed' } },
      });
      await store.close();
      store = await open();
      expect(await store.getSession('s1')).toEqual(created);
      expect(await store.getSession('s2')).toMatchObject({
        additionalDirectories: ['/work/lib'],
        title: 'Fix the build',
        model: 'anthropic/claude-sonnet-4-5',
        mode: 'plan',
        meta: { client: { name: 'zed' } },
      });
      expect(await store.getSession('missing')).toBeUndefined();
    });

    it('refuses a duplicate or empty id', async () => {
      expect((await storeError(() => store.createSession({ id: '', cwd: '/w' }))).message).toBe(
        'session id must be a non-empty string, got ""',
      );
      await store.createSession({ id: 's1', cwd: '/w' });
      const error = await storeError(() => store.createSession({ id: 's1', cwd: '/w' }));
      expect(error.code).toBe('conflict');
      expect(error.message).toContain('session "s1" already exists');
    });

    it('updates the given fields, bumps updatedAt, and fails for an unknown session', async () => {
      await store.createSession({ id: 's1', cwd: '/w', title: 'old', meta: { a: 1 } });
      const updated = await store.updateSession('s1', { title: null, mode: 'explore', meta: { b: 2 } });
      expect(updated).toMatchObject({ title: null, mode: 'explore', meta: { b: 2 }, model: null });
      expect(updated.updatedAt > updated.createdAt).toBe(true);
      const error = await storeError(() => store.updateSession('nope', { title: 'x' }));
      expect(error.code).toBe('not_found');
      expect(error.message).toContain('session "nope" does not exist');
    });

    it('lists newest first in pages of 3, with a cwd filter', async () => {
      // s0..s6, each created a second after the previous one; even ones in /even.
      for (let i = 0; i < 7; i++) await store.createSession({ id: `s${i}`, cwd: i % 2 === 0 ? '/even' : '/odd' });
      // Touching s2 makes it the most recently updated.
      await store.updateSession('s2', { title: 'touched' });

      const pages: string[][] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await store.listSessions({ limit: 3, ...(cursor === undefined ? {} : { cursor }) });
        pages.push(page.sessions.map((s) => s.id));
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      expect(pages).toEqual([['s2', 's6', 's5'], ['s4', 's3', 's1'], ['s0']]);

      const even = await store.listSessions({ cwd: '/even', limit: 3 });
      expect(even.sessions.map((s) => s.id)).toEqual(['s2', 's6', 's4']);
      expect(even.nextCursor).not.toBeNull();
      const evenRest = await store.listSessions({ cwd: '/even', limit: 3, cursor: even.nextCursor ?? '' });
      expect(evenRest).toEqual({ sessions: [expect.objectContaining({ id: 's0' })], nextCursor: null });

      expect((await store.listSessions({})).sessions).toHaveLength(7);
      expect(await store.listSessions({ cwd: '/nowhere' })).toEqual({ sessions: [], nextCursor: null });
    });

    it('breaks updatedAt ties by id so paging never skips or repeats', async () => {
      await store.close();
      store = await database.open({ now: () => new Date('2025-01-01T00:00:00.000Z') });
      for (const id of ['b', 'd', 'a', 'c']) await store.createSession({ id, cwd: '/w' });
      const first = await store.listSessions({ limit: 2 });
      const second = await store.listSessions({ limit: 2, cursor: first.nextCursor ?? '' });
      expect([...first.sessions, ...second.sessions].map((s: SessionRecord) => s.id)).toEqual(['d', 'c', 'b', 'a']);
      expect(second.nextCursor).toBeNull();
    });

    it('names a bad cursor and a bad limit', async () => {
      const cursorError = await storeError(() => store.listSessions({ cursor: 'not-a-cursor' }));
      expect(cursorError.code).toBe('invalid_argument');
      expect(cursorError.message).toContain('invalid session list cursor "not-a-cursor"');
      const limitError = await storeError(() => store.listSessions({ limit: 0 }));
      expect(limitError.message).toContain('limit must be a whole number >= 1, got 0');
    });

    it('caps the page size at 200', async () => {
      for (let i = 0; i < 201; i++) await store.createSession({ id: `s${String(i).padStart(3, '0')}`, cwd: '/w' });
      const page = await store.listSessions({ limit: 1000 });
      expect(page.sessions).toHaveLength(200);
      expect(page.nextCursor).not.toBeNull();
      expect((await store.listSessions({})).sessions).toHaveLength(50);
    });

    it('deletes a session with its turns and messages', async () => {
      await store.createSession({ id: 's1', cwd: '/w' });
      await store.createSession({ id: 's2', cwd: '/w' });
      for (const id of ['s1', 's2']) {
        await store.startTurn(id, `${id}-t1`);
        await store.appendMessage({ sessionId: id, turnId: `${id}-t1`, role: 'user', content: [{ type: 'text', text: 'hi' }] });
      }
      expect(await store.deleteSession('s1')).toBe(true);
      expect(await store.deleteSession('s1')).toBe(false);
      expect(await store.getSession('s1')).toBeUndefined();
      expect(await store.listMessages('s1')).toEqual([]);
      expect(await store.listTurns('s1')).toEqual([]);
      expect(await database.countRows('messages')).toBe(1);
      expect(await database.countRows('turns')).toBe(1);
      expect(await store.listMessages('s2')).toHaveLength(1);
    });
  });

  describe('turns', () => {
    it('starts, ends and lists turns in order', async () => {
      await store.createSession({ id: 's1', cwd: '/w' });
      const t1 = await store.startTurn('s1', 't1');
      expect(t1).toEqual({
        id: 't1',
        sessionId: 's1',
        status: 'running',
        startedAt: '2025-01-01T00:00:01.000Z',
        endedAt: null,
        error: null,
      });
      await store.endTurn('t1', 'end_turn');
      await store.startTurn('s1', 't2');
      await store.endTurn('t2', 'error', 'provider returned 500');
      expect(await store.listTurns('s1')).toEqual([
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

    it('gives clear errors for an unknown session, a reused id and a double end', async () => {
      expect((await storeError(() => store.startTurn('nope', 't1'))).message).toContain('session "nope" does not exist');
      await store.createSession({ id: 's1', cwd: '/w' });
      await store.startTurn('s1', 't1');
      expect((await storeError(() => store.startTurn('s1', 't1'))).code).toBe('conflict');
      expect((await storeError(() => store.endTurn('t9', 'end_turn'))).message).toContain('turn "t9" does not exist');
      await store.endTurn('t1', 'cancelled');
      const twice = await storeError(() => store.endTurn('t1', 'end_turn'));
      expect(twice.code).toBe('conflict');
      expect(twice.message).toContain('already ended with status "cancelled"');
      expect(await database.countRows('turns')).toBe(1);
    });

    it('marks running turns interrupted on recovery, once', async () => {
      await store.createSession({ id: 's1', cwd: '/w' });
      await store.startTurn('s1', 'done');
      await store.endTurn('done', 'end_turn');
      await store.startTurn('s1', 'running');
      await store.close();
      store = await open();
      const recovered = await store.recoverInterruptedTurns();
      expect(recovered).toEqual([
        expect.objectContaining({ id: 'running', status: 'interrupted', error: expect.stringContaining('stopped') }),
      ]);
      expect(recovered[0]?.endedAt).not.toBeNull();
      expect(await store.recoverInterruptedTurns()).toEqual([]);
      expect((await store.listTurns('s1')).map((t) => t.status)).toEqual(['end_turn', 'interrupted']);
    });
  });

  describe('messages', () => {
    it('appends in seq order, parses JSON columns and adds cost to the session', async () => {
      await store.createSession({ id: 's1', cwd: '/w' });
      await store.startTurn('s1', 't1');
      const user = await store.appendMessage({
        sessionId: 's1',
        turnId: 't1',
        role: 'user',
        content: [{ type: 'text', text: 'hello' }],
      });
      const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 0, reasoningTokens: 1 };
      const assistant = await store.appendMessage({
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
      await store.appendMessage({ sessionId: 's1', turnId: 't1', role: 'assistant', content: [], costUsd: 0.5 });

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
      await store.close();
      store = await open();
      expect(await store.listMessages('s1')).toEqual([user, assistant, expect.objectContaining({ seq: 3 })]);
      expect(await store.getSession('s1')).toMatchObject({ totalCostUsd: 0.75, updatedAt: '2025-01-01T00:00:04.000Z' });
    });

    it('writes nothing when the session is unknown', async () => {
      const error = await storeError(() => store.appendMessage({ sessionId: 'nope', turnId: 't', role: 'user', content: [] }));
      expect(error.code).toBe('not_found');
      expect(error.message).toContain('session "nope" does not exist');
      expect(await database.countRows('messages')).toBe(0);
    });

    it('rolls the message back when updating the session fails after the insert', async () => {
      await store.createSession({ id: 's1', cwd: '/w' });
      await store.appendMessage({ sessionId: 's1', turnId: 't', role: 'user', content: [], costUsd: 1 });
      // A second connection installs a trigger that makes the session update (the last
      // statement of appendMessage) fail, after the message row was inserted.
      if (implementation.name === 'sqlite') {
        await database.sql(`CREATE TRIGGER fail_cost BEFORE UPDATE OF total_cost_usd ON sessions
                  WHEN NEW.total_cost_usd > 5 BEGIN SELECT RAISE(ABORT, 'cost update refused'); END`);
      } else {
        await database.sql(`CREATE FUNCTION fail_cost() RETURNS trigger LANGUAGE plpgsql AS $$
                  BEGIN RAISE EXCEPTION 'cost update refused'; END $$;
                  CREATE TRIGGER fail_cost BEFORE UPDATE OF total_cost_usd ON sessions
                  FOR EACH ROW WHEN (NEW.total_cost_usd > 5) EXECUTE FUNCTION fail_cost();`);
      }

      await expect(
        store.appendMessage({ sessionId: 's1', turnId: 't', role: 'assistant', content: [], costUsd: 10 }),
      ).rejects.toThrow(/cost update refused/);
      expect((await store.listMessages('s1')).map((m) => m.seq)).toEqual([1]);
      expect((await store.getSession('s1'))?.totalCostUsd).toBe(1);
      // The next append still gets the next seq: nothing half-written is left behind.
      expect((await store.appendMessage({ sessionId: 's1', turnId: 't', role: 'user', content: [] })).seq).toBe(2);
    });

    it('rejects content that is not an array, a bad cost, non-JSON data and a reused id', async () => {
      await store.createSession({ id: 's1', cwd: '/w' });
      const base = { sessionId: 's1', turnId: 't', role: 'user' as const, content: [] };
      expect((await storeError(() => store.appendMessage({ ...base, content: 'hi' as unknown as unknown[] }))).message).toContain(
        'content must be an array',
      );
      expect((await storeError(() => store.appendMessage({ ...base, costUsd: -1 }))).message).toContain(
        'costUsd must be a finite number >= 0, got -1',
      );
      expect((await storeError(() => store.appendMessage({ ...base, meta: { n: 1n } }))).message).toMatch(
        /^meta cannot be stored as JSON/,
      );
      await store.appendMessage({ ...base, id: 'm1' });
      expect((await storeError(() => store.appendMessage({ ...base, id: 'm1' }))).message).toContain('message "m1" already exists');
      expect(await store.listMessages('s1')).toHaveLength(1);
    });
  });

  describe('addSessionCost', () => {
    it('adds a cost spent outside the messages (MCP sampling) to the session total, and refuses an unknown session', async () => {
      await store.createSession({ id: 's-cost', cwd: '/w', additionalDirectories: [], meta: {} });
      await store.addSessionCost('s-cost', 0.25);
      await store.addSessionCost('s-cost', 0.5);
      expect((await store.getSession('s-cost'))!.totalCostUsd).toBeCloseTo(0.75, 12);
      await expect(async () => store.addSessionCost('missing', 1)).rejects.toThrow(StoreError);
    });
  });
});
