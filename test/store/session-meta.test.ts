import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionMeta } from '../../src/store/session-meta.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

const unreadable = { name: 'unreadable constraint', access: 'search', tools: [] };

describe('readSessionMeta', () => {
  it('reads every known key as written', async () => {
    const meta = {
      parentSessionId: 'p',
      parentToolCallId: 'c',
      agentConstraints: [{ name: 'plan', access: 'read' }, { name: 'lead', access: 'full', tools: ['read'] }],
      budgetUsd: 0.5,
      deliveryModes: { steering: 'oneAtATime', followUp: 'all' },
      schedule: { id: 's', name: 'nightly', runId: 'r', permissionMode: 'acceptEdits' },
    };
    expect(readSessionMeta(JSON.parse(JSON.stringify(meta)))).toEqual(meta);
  });

  it('keeps keys it does not know, whatever their shape', async () => {
    const meta = { client: { name: 'zed' }, permissionMode: 'bypass', future: [1, 'two', null] };
    expect(readSessionMeta(meta)).toEqual(meta);
  });

  it('drops a known key of the wrong shape and keeps the rest', async () => {
    expect(readSessionMeta({ parentSessionId: 7, budgetUsd: 'lots', schedule: { id: 's' }, kept: true, parentToolCallId: 'c' })).toEqual({
      kept: true,
      parentToolCallId: 'c',
    });
  });

  it('reads a delivery mode it does not know as unset, the other one kept', async () => {
    expect(readSessionMeta({ deliveryModes: { steering: 'oneAtATime', followUp: 'sometimes' } }).deliveryModes).toEqual({ steering: 'oneAtATime' });
  });

  it('reads unreadable agent constraints as allowing nothing rather than dropping them', async () => {
    expect(readSessionMeta({ agentConstraints: 'full' }).agentConstraints).toEqual([unreadable]);
    expect(readSessionMeta({ agentConstraints: [{ name: 'plan', access: 'read' }, null, { name: 'x', access: 'root' }] }).agentConstraints).toEqual([
      { name: 'plan', access: 'read' },
      unreadable,
      unreadable,
    ]);
  });

  it('reads a stored value that is not an object as empty', async () => {
    for (const stored of [null, [], 'meta', 3]) expect(readSessionMeta(stored)).toEqual({});
  });
});

describe.each(STORE_IMPLEMENTATIONS)('session meta in a $name store', (implementation) => {
  if (!implementation.available()) return;
  let database: StoreDatabase;
  beforeEach(async () => {
    database = await implementation.create();
  });
  afterEach(() => database.dispose());

  const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

  /** Writes a session's meta column as another version (or a hand edit) might have. */
  async function writeRawMeta(id: string, meta: string): Promise<void> {
    await database.sql(`UPDATE sessions SET meta = ${literal(meta)} WHERE id = ${literal(id)}`);
  }

  async function readRawMeta(id: string): Promise<string> {
    return String((await database.sql(`SELECT meta FROM sessions WHERE id = ${literal(id)}`))[0]!.meta);
  }

  it('loads a session whose stored meta has a known key of the wrong shape, and leaves the row as it was', async () => {
    let store = await database.open();
    await store.createSession({ id: 's1', cwd: '/w', meta: { parentSessionId: 'p' } });
    await store.close();
    const raw = JSON.stringify({ parentSessionId: 'p', budgetUsd: { usd: 1 }, deliveryModes: 'all', newerKey: { x: 1 } });
    await writeRawMeta('s1', raw);

    store = await database.open();
    try {
      expect((await store.getSession('s1'))?.meta).toEqual({ parentSessionId: 'p', newerKey: { x: 1 } });
      expect((await store.listSessions({})).sessions.map((s) => s.meta)).toEqual([{ parentSessionId: 'p', newerKey: { x: 1 } }]);
    } finally {
      await store.close();
    }
    expect(await readRawMeta('s1')).toBe(raw);
  });

  it('writes unknown keys back untouched when the meta is updated', async () => {
    let store = await database.open();
    await store.createSession({ id: 's1', cwd: '/w' });
    await store.close();
    await writeRawMeta('s1', JSON.stringify({ newerKey: { nested: [1, 2] } }));

    store = await database.open();
    try {
      const { meta } = (await store.getSession('s1'))!;
      await store.updateSession('s1', { meta: { ...meta, deliveryModes: { steering: 'oneAtATime' } } });
    } finally {
      await store.close();
    }
    expect(JSON.parse(await readRawMeta('s1'))).toEqual({ newerKey: { nested: [1, 2] }, deliveryModes: { steering: 'oneAtATime' } });
  });
});
