import { z } from 'zod';
import { defineMethod } from './method-descriptor.js';
import { SessionIdSchema } from './meta.js';
import { StopReasonSchema } from './prompt.js';
import { SessionOverviewSchema } from './session-overview.js';

/*
 * `agentd/daemonEvent` (agentd extension): what happens in the daemon outside any one
 * turn — scheduled runs starting and finishing, configuration reloaded or rejected, MCP
 * servers changing state. Sent only to clients that set `_meta.agentd.events: true` in
 * `initialize`, like `agentd/event`.
 */

const scheduleId = z.string().describe('Id of the schedule (its name for a schedule from config).');
const runId = z.string().describe('Id of this run (the key of its history row).');

export const ScheduleRunTriggerSchema = z
  .enum(['cron', 'manual', 'missed'])
  .describe('cron: its time came; manual: `schedules/run`; missed: caught up at start-up after the daemon was down.');
export type ScheduleRunTrigger = z.infer<typeof ScheduleRunTriggerSchema>;

export const ScheduleRunOutcomeSchema = z
  .enum(['completed', 'failed', 'timed_out', 'cancelled', 'skipped'])
  .describe(
    'completed: the turn ended by itself (see stopReason); failed: it could not run or ended in an error; timed_out: aborted at its timeout; cancelled: stopped by the daemon shutting down or the schedule removed; skipped: not run because the previous run was still going (overlap "skip").',
  );
export type ScheduleRunOutcome = z.infer<typeof ScheduleRunOutcomeSchema>;

export const ScheduleRunStartedEventSchema = z
  .strictObject({
    type: z.literal('schedule_run_started'),
    scheduleId,
    runId,
    sessionId: SessionIdSchema.describe('The session the run prompts (an ordinary session: loadable, exportable).'),
    trigger: ScheduleRunTriggerSchema,
    startedAt: z.string().describe('ISO 8601 time the run started.'),
  })
  .describe('A scheduled run started.');

export const ScheduleRunFinishedEventSchema = z
  .strictObject({
    type: z.literal('schedule_run_finished'),
    scheduleId,
    runId,
    sessionId: SessionIdSchema.nullable().describe('The run\'s session; null when none was created (skipped, or failed before).'),
    outcome: ScheduleRunOutcomeSchema,
    stopReason: StopReasonSchema.optional().describe('How the turn ended, when it ran.'),
    costUsd: z.number().min(0).describe('What the run spent, in US dollars.'),
    error: z.string().optional().describe('Why it failed or was skipped.'),
    endedAt: z.string().describe('ISO 8601 time the run ended.'),
  })
  .describe('A scheduled run finished (or was skipped); its history row holds the same.');

export const ConfigReloadedEventSchema = z
  .strictObject({
    type: z.literal('config_reloaded'),
    file: z.string().describe('The file whose change was applied.'),
    sessionIds: z.array(SessionIdSchema).describe('Live sessions the change applies to from their next model request.'),
  })
  .describe('A config, AGENTS.md, skill or agent file changed and was applied.');

export const ConfigRejectedEventSchema = z
  .strictObject({
    type: z.literal('config_rejected'),
    file: z.string().describe('The file whose edit was refused.'),
    path: z.string().optional().describe('The JSON path of the problem (`providers.local.baseUrl`), when there is one.'),
    problem: z.string().describe('What is wrong and how to fix it.'),
    sessionIds: z.array(SessionIdSchema).describe('Live sessions that keep their last good configuration.'),
  })
  .describe('An edit was invalid; the last good configuration stays in force until the file is fixed.');

export const McpServerStateSchema = z
  .enum(['starting', 'running', 'restarting', 'failed', 'stopped'])
  .describe('Where an MCP server is in its life.');
export type McpServerStateName = z.infer<typeof McpServerStateSchema>;

export const McpServerEventSchema = z
  .strictObject({
    type: z.literal('mcp_server'),
    name: z.string().describe('The server\'s name (prefix of its tools).'),
    sessionId: SessionIdSchema.optional().describe('Set for a session\'s own server; absent for a server of the user\'s config.'),
    state: McpServerStateSchema,
    tools: z.number().int().min(0).describe('Tools it offers now.'),
    error: z.string().optional().describe('Why it failed or is restarting.'),
  })
  .describe('An MCP server changed state.');

export const SessionChangedEventSchema = z
  .strictObject({ type: z.literal('session_changed'), session: SessionOverviewSchema })
  .describe('A session was created, or its state, title, cost, mode or model changed (cost at least at each turn\'s end).');

export const SessionRemovedEventSchema = z
  .strictObject({ type: z.literal('session_removed'), sessionId: SessionIdSchema })
  .describe('A session was deleted.');

/** Every daemon event; `type` selects the variant. */
export const DaemonEventSchema = z
  .discriminatedUnion('type', [
    ScheduleRunStartedEventSchema,
    ScheduleRunFinishedEventSchema,
    ConfigReloadedEventSchema,
    ConfigRejectedEventSchema,
    McpServerEventSchema,
    SessionChangedEventSchema,
    SessionRemovedEventSchema,
  ])
  .describe('A daemon-wide agentd event.');
export type DaemonEvent = z.infer<typeof DaemonEventSchema>;
/** The variant of DaemonEvent with the given `type`. */
export type DaemonEventOf<K extends DaemonEvent['type']> = Extract<DaemonEvent, { type: K }>;

/** `agentd/daemonEvent` params. */
export const DaemonEventNotificationSchema = z.strictObject({ event: DaemonEventSchema }).describe('Params of `agentd/daemonEvent`.');
export type DaemonEventNotification = z.infer<typeof DaemonEventNotificationSchema>;

export const daemonEventMethod = defineMethod({
  method: 'agentd/daemonEvent',
  clientMethod: 'daemonEvent',
  direction: 'daemon-to-client',
  kind: 'notification',
  params: DaemonEventNotificationSchema,
  result: undefined,
  summary: 'Daemon-wide events (scheduled runs, config reloaded or rejected, MCP server states, sessions changed or removed) for opted-in clients.',
  acp: false,
  feature: 'events',
  errors: [],
  example: {
    params: {
      event: {
        type: 'config_rejected',
        file: '/home/ada/proj/.agentd/config.json',
        path: 'model',
        problem: 'expected "provider/model", like "anthropic/claude-sonnet-4-5"',
        sessionIds: ['ses_01J9Z'],
      },
    },
  },
});
