import { z } from 'zod';
import { defineMethod } from './method-descriptor.js';

/*
 * The daemon itself (agentd extension): what `agentd status` shows. Stopping is a signal
 * to the pid this reports (SIGTERM), as for any Unix daemon; no method stops it, so a
 * client of a shared daemon cannot end the others' sessions.
 */

/** `daemon/status` params (none). */
export const DaemonStatusRequestSchema = z.strictObject({}).describe('Params of `daemon/status` (none).');
export type DaemonStatusRequest = z.infer<typeof DaemonStatusRequestSchema>;

export const DaemonStatusResponseSchema = z
  .strictObject({
    pid: z.number().int().describe('The daemon\'s process id (SIGTERM stops it gracefully).'),
    startedAt: z.string().describe('When it started, ISO 8601 UTC.'),
    version: z.string().describe('agentd package version.'),
    socket: z.string().nullable().describe('The Unix socket it serves, if any.'),
    clients: z.number().int().min(0).describe('Connected clients, the asking one included.'),
    sessions: z
      .strictObject({
        loaded: z.number().int().min(0).describe('Live sessions (opened by a client or a run since they were last closed).'),
        running: z.number().int().min(0).describe('Sessions running a turn now.'),
      })
      .describe('Sessions in memory; stored ones are listed by `session/list`.'),
    idleExitMs: z
      .number()
      .int()
      .nullable()
      .describe('Started on demand: it exits after this many ms with no client, turn, queued message or enabled schedule. null: runs until stopped.'),
    logFile: z.string().nullable().describe('The file it logs to; null when it logs to its stderr.'),
    http: z
      .string()
      .nullable()
      .describe('The web dashboard\'s origin (`http://127.0.0.1:7780`) while the daemon serves HTTP; null when it serves none. `dashboard/login` gives a login address.'),
  })
  .describe('Result of `daemon/status`.');
export type DaemonStatusResponse = z.infer<typeof DaemonStatusResponseSchema>;

export const daemonStatusMethod = defineMethod({
  method: 'daemon/status',
  clientMethod: 'daemonStatus',
  direction: 'client-to-daemon',
  kind: 'request',
  params: DaemonStatusRequestSchema,
  result: DaemonStatusResponseSchema,
  summary: 'The daemon\'s pid, uptime, clients, loaded and running sessions, idle exit and log file (`agentd status`).',
  acp: false,
  feature: 'daemon',
  errors: [],
  example: {
    params: {},
    result: {
      pid: 4242,
      startedAt: '2026-11-26T08:00:00.000Z',
      version: '0.1.0',
      socket: '/run/user/1000/agentd/agentd.sock',
      clients: 2,
      sessions: { loaded: 3, running: 1 },
      idleExitMs: 1800000,
      logFile: '/home/ada/.local/state/agentd/logs/daemon.log',
      http: 'http://127.0.0.1:7780',
    },
  },
});
