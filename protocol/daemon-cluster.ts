import { z } from 'zod';
import { defineMethod } from './method-descriptor.js';

/*
 * `daemon/cluster` (agentd extension): the store a daemon uses and, with several daemons
 * sharing a PostgreSQL store, the cluster: every daemon with its heartbeat, turns and
 * sessions, and the work queue's depth. Read only; on the SQLite default it lists the one daemon.
 */

/** `daemon/cluster` params (none). */
export const DaemonClusterRequestSchema = z.strictObject({}).describe('Params of `daemon/cluster` (none).');
export type DaemonClusterRequest = z.infer<typeof DaemonClusterRequestSchema>;

export const ClusterDaemonSchema = z
  .strictObject({
    id: z.string().describe('The daemon\'s id, `dmn_` and 16 hex digits, new at each start.'),
    self: z.boolean().describe('Whether it is the daemon answering.'),
    host: z.string().describe('The machine\'s host name.'),
    pid: z.number().int().describe('Its process id on that machine.'),
    startedAt: z.string().describe('When it joined, ISO 8601 UTC.'),
    heartbeatAt: z.string().describe('Its last heartbeat, ISO 8601 UTC (by the database\'s clock).'),
    heartbeatAgeMs: z.number().int().min(0).describe('Milliseconds since that heartbeat.'),
    alive: z.boolean().describe('False once it went its lease length without a heartbeat: its sessions are being taken over.'),
    runningTurns: z.number().int().min(0).describe('Turns it ran at its last heartbeat, interactive and headless.'),
    concurrency: z.number().int().min(1).describe('The turns it runs at once (`cluster.concurrency`).'),
    queuedRunning: z.number().int().min(0).describe('Queued prompts (headless jobs) it has taken and runs now; counted among its turns.'),
    roots: z
      .array(z.string())
      .describe('The folders whose sessions it serves (`cluster.roots`, each its real path on that machine); empty: every folder.'),
    sessionsOwned: z.array(z.string()).describe('Sessions whose live lease it holds (their turns run there).'),
  })
  .describe('One daemon of the cluster.');

export const DaemonClusterResponseSchema = z
  .strictObject({
    store: z
      .strictObject({
        type: z.enum(['sqlite', 'postgres']).describe('The SQLite file in the data directory, or a PostgreSQL database.'),
        location: z.string().describe('The file, or the database URL with its password hidden.'),
      })
      .describe('The store this daemon uses.'),
    daemonId: z.string().describe('The answering daemon\'s id.'),
    daemons: z.array(ClusterDaemonSchema).describe('Every daemon registered in the store, the answering one included, by start.'),
    queue: z
      .strictObject({
        kind: z.enum(['in-process', 'pg-boss']).describe('Where queued prompts wait: this daemon\'s memory, or pg-boss in the PostgreSQL store.'),
        waiting: z.number().int().min(0).describe('Queued prompts no daemon has taken yet.'),
        heldHere: z.number().int().min(0).describe('Queued prompts this daemon holds: waiting in its memory or running.'),
      })
      .describe('The work queue (`_meta.agentd.queue`, `agentd run --detach`).'),
  })
  .describe('Result of `daemon/cluster`.');
export type DaemonClusterResponse = z.infer<typeof DaemonClusterResponseSchema>;

export const daemonClusterMethod = defineMethod({
  method: 'daemon/cluster',
  clientMethod: 'daemonCluster',
  direction: 'client-to-daemon',
  kind: 'request',
  params: DaemonClusterRequestSchema,
  result: DaemonClusterResponseSchema,
  summary: 'The store in use, the daemons sharing it (heartbeat, turns, sessions owned) and the work queue\'s depth (`agentd status`).',
  acp: false,
  feature: 'daemon',
  errors: [],
  example: {
    params: {},
    result: {
      store: { type: 'postgres', location: 'postgres://agentd:***@db.internal:5432/agentd' },
      daemonId: 'dmn_3f2a9c41d07be815',
      daemons: [
        {
          id: 'dmn_3f2a9c41d07be815',
          self: true,
          host: 'build-1',
          pid: 4242,
          startedAt: '2026-11-27T08:00:00.000Z',
          heartbeatAt: '2026-11-27T09:12:03.120Z',
          heartbeatAgeMs: 1210,
          alive: true,
          runningTurns: 3,
          concurrency: 8,
          queuedRunning: 1,
          roots: ['/srv/work'],
          sessionsOwned: ['2c1f6d0e-8b7a-4a39-9f0d-5e1c2b3a4d5f'],
        },
      ],
      queue: { kind: 'pg-boss', waiting: 12, heldHere: 3 },
    },
  },
});
