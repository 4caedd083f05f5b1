import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { readSessionMeta } from '../../src/store/session-meta.js';

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

describe('session meta in a SQLite file', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-meta-'));
    file = path.join(dir, 'data', 'agentd.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Writes a session's meta column as another version (or a hand edit) might have. */
  function writeRawMeta(id: string, meta: string): void {
    const db = new Database(file);
    try {
      db.prepare('UPDATE sessions SET meta = ? WHERE id = ?').run(meta, id);
    } finally {
      db.close();
    }
  }

  function readRawMeta(id: string): string {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT meta FROM sessions WHERE id = ?').get(id) as { meta: string }).meta;
    } finally {
      db.close();
    }
  }

  it('loads a session whose stored meta has a known key of the wrong shape, and leaves the row as it was', async () => {
    let store = openStore(file);
    await store.createSession({ id: 's1', cwd: '/w', meta: { parentSessionId: 'p' } });
    await store.close();
    const raw = JSON.stringify({ parentSessionId: 'p', budgetUsd: { usd: 1 }, deliveryModes: 'all', newerKey: { x: 1 } });
    writeRawMeta('s1', raw);

    store = openStore(file);
    try {
      expect((await store.getSession('s1'))?.meta).toEqual({ parentSessionId: 'p', newerKey: { x: 1 } });
      expect((await store.listSessions({})).sessions.map((s) => s.meta)).toEqual([{ parentSessionId: 'p', newerKey: { x: 1 } }]);
    } finally {
      await store.close();
    }
    expect(readRawMeta('s1')).toBe(raw);
  });

  it('writes unknown keys back untouched when the meta is updated', async () => {
    let store = openStore(file);
    await store.createSession({ id: 's1', cwd: '/w' });
    await store.close();
    writeRawMeta('s1', JSON.stringify({ newerKey: { nested: [1, 2] } }));

    store = openStore(file);
    try {
      const { meta } = (await store.getSession('s1'))!;
      await store.updateSession('s1', { meta: { ...meta, deliveryModes: { steering: 'oneAtATime' } } });
    } finally {
      await store.close();
    }
    expect(JSON.parse(readRawMeta('s1'))).toEqual({ newerKey: { nested: [1, 2] }, deliveryModes: { steering: 'oneAtATime' } });
  });
});
