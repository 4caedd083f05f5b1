import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionSearch, Store } from '../../src/store/store.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

// searchSessions must mean the same on every implementation: the daemon's filters and its cursors depend on it.
describe.each(STORE_IMPLEMENTATIONS)('searchSessions on the $name store', (implementation) => {
  if (!implementation.available()) return;
  let database: StoreDatabase;
  let store: Store;
  let clock: number;

  beforeEach(async () => {
    database = await implementation.create();
    clock = 0;
    store = await database.open({ now: () => new Date(Date.UTC(2025, 0, 1) + clock++ * 1000) });
    const sessions: Array<[string, string, string | null]> = [
      ['a', '/w', 'Fix the FLAKY test'],
      ['b', '/w', 'Éclair recipe'],
      ['c', '/other', '100% done_now'],
      ['d', '/w', null],
      ['e', '/w', '100 percent done'],
    ];
    for (const [id, cwd, title] of sessions) await store.createSession({ id, cwd, title });
    await store.startTurn('a', 'ta');
    await store.endTurn('ta', 'error', 'boom');
    await store.startTurn('b', 'tb1');
    await store.endTurn('tb1', 'error', 'boom');
    await store.startTurn('b', 'tb2');
    await store.endTurn('tb2', 'end_turn');
  });
  afterEach(async () => {
    await store.close();
    await database.dispose();
  });

  const ids = async (search: SessionSearch): Promise<string[]> => (await store.searchSessions(search)).sessions.map((s) => s.record.id);

  it('folds ASCII letters only, and takes % and _ in the text literally', async () => {
    expect(await ids({ titleContains: 'flaky' })).toEqual(['a']);
    expect(await ids({ titleContains: 'éclair' })).toEqual([]);
    expect(await ids({ titleContains: 'ÉCLAIR' })).toEqual(['b']);
    expect(await ids({ titleContains: 'Éclair' })).toEqual(['b']);
    expect(await ids({ titleContains: '100%' })).toEqual(['c']);
    expect(await ids({ titleContains: 'done_' })).toEqual(['c']);
    expect(await ids({ titleContains: '' })).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(await ids({ titleContains: 'e', cwd: '/w' })).toEqual(['e', 'b', 'a']);
  });

  it('selects listed ids, and stored sessions outside the live ones by their last turn', async () => {
    expect(await ids({ select: { ids: ['c'] } })).toEqual(['c']);
    expect(await ids({ select: { ids: [], stored: { exceptIds: ['e'], lastTurnFailed: true } } })).toEqual(['a']);
    // b's last turn ended well though an earlier one failed; d and c never ran a turn.
    expect(await ids({ select: { ids: ['a'], stored: { exceptIds: ['e'], lastTurnFailed: false } } })).toEqual(['d', 'c', 'b', 'a']);
    expect(await ids({ select: { ids: [], stored: { exceptIds: ['a', 'b'] } } })).toEqual(['e', 'd', 'c']);
    const found = await store.searchSessions({ select: { ids: ['b'] } });
    expect(found.sessions[0]?.lastTurn).toMatchObject({ id: 'tb2', status: 'end_turn' });
  });

  it('pages with the list cursor, counting every match', async () => {
    const first = await store.searchSessions({ limit: 2 });
    expect(first.total).toBe(5);
    expect(first.sessions.map((s) => s.record.id)).toEqual(['e', 'd']);
    const second = await store.searchSessions({ limit: 2, cursor: first.nextCursor! });
    expect(second.sessions.map((s) => s.record.id)).toEqual(['c', 'b']);
    expect(second.total).toBe(5);
    // The cursor is the list's own: listSessions resumes from it too.
    expect((await store.listSessions({ cursor: first.nextCursor!, limit: 1 })).sessions.map((s) => s.id)).toEqual(['c']);
    const last = await store.searchSessions({ limit: 2, cursor: second.nextCursor! });
    expect([last.sessions.map((s) => s.record.id), last.nextCursor]).toEqual([['a'], null]);
    await expect(store.searchSessions({ limit: 501 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(store.searchSessions({ cursor: 'nope' })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
