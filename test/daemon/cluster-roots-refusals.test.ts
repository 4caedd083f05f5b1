import { mkdirSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { startRootsTestBed, type RootsTestBed } from '../support/daemons-with-roots.js';
import { POSTGRES } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';

/**
 * What a daemon with `cluster.roots` refuses, on one PostgreSQL store shared with others:
 * a live session outside its roots (naming the daemons that serve the folder), and work
 * for a folder no live daemon serves (never queued to wait forever). Schedules fire only
 * on a daemon that serves their folder.
 */
describe.skipIf(!requireProgram(POSTGRES))('a daemon serving declared folders', () => {
  let bed: RootsTestBed;
  beforeEach(async () => {
    bed = await startRootsTestBed({ respond: () => ({ body: chatCompletionSse(['Done.']) }) });
  });
  afterEach(() => bed.close());

  it('refuses session/new outside its roots in every spelling, naming the folder, its roots and the live daemons that serve it', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    const b = await bed.start('b', { roots: [bed.rootB] });
    mkdirSync(`${bed.rootA}shop`);
    symlinkSync(bed.rootB, join(bed.rootA, 'link-to-b'));
    const servedByB = [{ id: b.context.cluster.daemonId, host: os.hostname() }];
    const refused: Array<[string, string, unknown[]]> = [
      [join(bed.rootB, 'app'), join(bed.rootB, 'app'), servedByB],
      [`${bed.rootA}/../b/app`, `${bed.rootA}/../b/app`, servedByB],
      [join(bed.rootA, 'link-to-b'), join(bed.rootA, 'link-to-b'), servedByB],
      [`${bed.rootA}shop`, `${bed.rootA}shop`, []],
      [bed.dir, bed.dir, []],
      [join(bed.rootC, 'app'), join(bed.rootC, 'app'), []],
    ];
    for (const [cwd, folder, servingDaemons] of refused) {
      const answer = await a.peer.request('session/new', { cwd, mcpServers: [] });
      expect([cwd, answer.error?.data]).toEqual([cwd, { kind: 'folder_not_served', folder, roots: [bed.rootA], servingDaemons }]);
      expect(answer.error?.message).toContain(`session/new: this daemon does not serve ${folder} (its cluster.roots are ${bed.rootA}); `);
    }
    const answer = await a.peer.request('session/new', { cwd: join(bed.rootB, 'app'), mcpServers: [] });
    expect(answer.error?.message).toContain(`connect to a daemon that serves it (${b.context.cluster.daemonId} on ${os.hostname()}), or add the folder to this daemon's cluster.roots`);
    for (const cwd of [bed.rootA, `${bed.rootA}/`, `${bed.rootA}//app/.`, `${bed.rootB}/../a/app`]) {
      expect([cwd, (await a.peer.request('session/new', { cwd, mcpServers: [] })).error]).toEqual([cwd, undefined]);
    }
  });

  it('refuses a queued prompt, a prompt and a steer for a session whose folder no live daemon serves, and ignores its cancel', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    const c = await bed.start('c', { roots: [bed.rootC] });
    const cwd = join(bed.rootC, 'app');
    const { sessionId } = await c.peer.call('session/new', { cwd, mcpServers: [] });
    // Queued while C lives: some daemon serves the folder.
    const queued = await a.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'while c lives' }], _meta: { agentd: { queue: true } } });
    expect(queued._meta?.agentd).toMatchObject({ outcome: 'queued' });
    await expect.poll(() => bed.replay.requests.length, { timeout: 20_000 }).toBe(1);
    await c.daemon.close();

    const data = { kind: 'no_daemon_for_folder', folder: cwd, roots: [bed.rootA] };
    const refusedQueue = await a.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'queued' }], _meta: { agentd: { queue: true } } });
    expect(refusedQueue.error?.data).toEqual(data);
    expect(refusedQueue.error?.message).toBe(
      `session/prompt: no live daemon serves ${cwd}, the folder of session ${sessionId} (this daemon's cluster.roots are ${bed.rootA}); ` +
        'start a daemon whose cluster.roots hold it, or add it to the cluster.roots of one in config.json and restart it',
    );
    expect((await a.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'now' }] })).error?.data).toEqual(data);
    expect((await a.peer.request('session/steer', { sessionId, prompt: [{ type: 'text', text: 'steer' }] })).error?.data).toEqual(data);
    a.peer.notify('session/cancel', { sessionId });
    // The session still loads here, for reading and following.
    await a.peer.call('session/load', { sessionId, cwd, mcpServers: [] });
    expect(bed.replay.requests).toHaveLength(1);
  });

  it('shows each daemon\'s roots in daemon/cluster; a daemon without roots shows none (every folder)', async () => {
    const a = await bed.start('a', { roots: [`${bed.rootA}/`] });
    const any = await bed.start('any', {});
    const { daemons } = await any.peer.call('daemon/cluster', {});
    expect(daemons.map((daemon) => [daemon.id, daemon.roots])).toEqual([
      [a.context.cluster.daemonId, [bed.rootA]],
      [any.context.cluster.daemonId, []],
    ]);
  });

  it('fires a schedule only on the daemon that serves its folder, and refuses to add or run one here for a folder served elsewhere', async () => {
    const schedule = { name: 'tick', cron: '* * * * * *', prompt: 'tick', cwd: join(bed.rootB, 'app'), permissionMode: 'deny' as const };
    const a = await bed.start('a', { roots: [bed.rootA] }, { schedules: [schedule] });
    const b = await bed.start('b', { roots: [bed.rootB] }, { schedules: [schedule] });
    const store = await openPostgresStore(bed.url);
    try {
      // Both daemons have the schedule's timer in their config: every due time would go to whichever records it first.
      await expect.poll(async () => (await store.schedules.listRuns('tick', {})).runs.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
      const runs = (await store.schedules.listRuns('tick', {})).runs;
      expect(new Set(runs.map((run) => run.daemonId))).toEqual(new Set([b.context.cluster.daemonId]));
    } finally {
      await store.close();
    }
    expect(a.daemon.stderr()).toContain(`schedule tick runs on a daemon that serves ${schedule.cwd}, not here: the folder is outside this daemon's cluster.roots`);
    // Listed on both, with its next time.
    expect((await a.peer.call('schedules/list', {})).schedules[0]?.nextRunAt).not.toBeNull();

    const run = await a.peer.request('schedules/run', { id: 'tick' });
    expect(run.error?.data).toMatchObject({ kind: 'folder_not_served', folder: schedule.cwd, servingDaemons: [{ id: b.context.cluster.daemonId }] });
    const added = await a.peer.request('schedules/add', { ...schedule, name: 'other', cron: '0 9 * * *' });
    expect(added.error?.data).toMatchObject({ kind: 'folder_not_served', folder: schedule.cwd });
    expect(added.error?.message).toContain('schedules/add: this daemon does not serve');
    // A folder no live daemon serves: refused here too, with nobody to name.
    const nobody = await a.peer.request('schedules/add', { ...schedule, name: 'nobody', cwd: join(bed.rootC, 'app') });
    expect(nobody.error?.message).toContain('no live daemon of the cluster serves it: start one whose cluster.roots hold it, or add the folder');
    expect(nobody.error?.data).toEqual({ kind: 'folder_not_served', folder: join(bed.rootC, 'app'), roots: [bed.rootA], servingDaemons: [] });
    expect((await b.peer.request('schedules/add', { ...schedule, name: 'other', cron: '0 9 * * *' })).error).toBeUndefined();
    const { schedules } = await b.peer.call('schedules/list', {});
    const other = schedules.find((entry) => entry.name === 'other')!;
    const moved = await b.peer.request('schedules/update', { id: other.id, cwd: join(bed.rootA, 'app') });
    expect(moved.error?.data).toMatchObject({ kind: 'folder_not_served', folder: join(bed.rootA, 'app'), servingDaemons: [{ id: a.context.cluster.daemonId }] });
  });
});
