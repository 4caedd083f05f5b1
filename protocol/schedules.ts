import { z } from 'zod';
import { ScheduleRunOutcomeSchema, ScheduleRunTriggerSchema } from './daemon-events.js';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { SessionIdSchema } from './meta.js';
import { StopReasonSchema } from './prompt.js';

/*
 * Schedules (agentd extension): prompts the daemon runs by itself on a cron schedule, each
 * run in a new ordinary session (loadable like any other), with a history of runs. Schedules
 * come from config.json (`source: "config"`, read-only here: edit the file) or from
 * `schedules/add` (`source: "protocol"`, kept in the daemon's database). Runs are headless:
 * no one is asked anything, see `permissionMode`. Cron syntax, time zone and cwd are checked
 * by the daemon, which answers InvalidParams naming the field and how to fix it.
 */

/** Default `timeoutMs`: three minutes. */
export const DEFAULT_SCHEDULE_TIMEOUT_MS = 180_000;

export const ScheduleOverlapSchema = z
  .enum(['skip', 'queue'])
  .describe('When a run is due while the previous one still runs: skip records a "skipped" run; queue runs it after (at most one waits).');
export type ScheduleOverlap = z.infer<typeof ScheduleOverlapSchema>;

export const SchedulePermissionModeSchema = z
  .enum(['ask', 'acceptEdits', 'bypass', 'deny'])
  .describe(
    'Permission mode of the run\'s own turn, never stored with its session: a later turn of that session (a client that ' +
      'opens it, after a restart too) runs in the project\'s mode and asks. Runs are headless, so nobody answers questions: in "ask" (and for what ' +
      '"acceptEdits" would still ask) a call that would ask is refused, and the model is told why. "bypass" runs everything ' +
      'but explicit deny rules; "deny" refuses whatever would ask, even read-only tools that only claim to be.',
  );
export type SchedulePermissionMode = z.infer<typeof SchedulePermissionModeSchema>;

/** The fields a schedule is made of, shared by `schedules/add` and the stored schedule. */
const fields = {
  name: z.string().min(1).describe('Unique name, shown in lists and used as the run session\'s title.'),
  cron: z
    .string()
    .min(1)
    .describe('Cron expression: 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), or a nickname like "@daily".'),
  timezone: z.string().min(1).describe('IANA time zone the cron is read in, like "Europe/Berlin"; default: the daemon\'s own.'),
  prompt: z.string().min(1).describe('The prompt sent to a new session at each run.'),
  cwd: z.string().min(1).describe('Absolute path of an existing directory: the run session\'s working directory.'),
  agent: z.string().min(1).describe('Agent (mode) of the run session, like "build"; the project\'s default when absent.'),
  model: z.string().min(1).describe('`provider/model` of the run session; the project\'s default when absent.'),
  timeoutMs: z.number().int().positive().describe(`Abort the run after this many milliseconds (default ${DEFAULT_SCHEDULE_TIMEOUT_MS}).`),
  budgetUsd: z.number().positive().describe('Stop the run\'s turn once it would spend more than this, in US dollars.'),
  permissionMode: SchedulePermissionModeSchema,
  overlap: ScheduleOverlapSchema,
  runMissed: z.boolean().describe('At start-up, run once if a scheduled time passed while the daemon was down.'),
  enabled: z.boolean().describe('A disabled schedule keeps its definition and history but never runs by itself.'),
};

export const ScheduleIdSchema = z.string().min(1).describe('Schedule id: the name of a config schedule, `sch_…` for one added over the protocol.');

/** A schedule as the daemon has it. */
export const ScheduleSchema = z
  .strictObject({
    id: ScheduleIdSchema,
    ...fields,
    agent: fields.agent.optional(),
    model: fields.model.optional(),
    budgetUsd: fields.budgetUsd.optional(),
    source: z.enum(['config', 'protocol']).describe('config: from config.json (read-only over the protocol); protocol: added by `schedules/add`.'),
    nextRunAt: z.string().nullable().describe('ISO 8601 time of the next cron run; null when disabled or the cron has no future time.'),
  })
  .describe('A scheduled prompt.');
export type Schedule = z.infer<typeof ScheduleSchema>;

/** `schedules/add` params: everything but name, cron, prompt and cwd has a default. */
export const AddScheduleRequestSchema = z
  .strictObject({
    ...fields,
    timezone: fields.timezone.optional(),
    agent: fields.agent.optional(),
    model: fields.model.optional(),
    timeoutMs: fields.timeoutMs.optional(),
    budgetUsd: fields.budgetUsd.optional(),
    permissionMode: fields.permissionMode.optional().describe('Default "ask" (whatever would ask is refused).'),
    overlap: fields.overlap.optional().describe('Default "skip".'),
    runMissed: fields.runMissed.optional().describe('Default false.'),
    enabled: fields.enabled.optional().describe('Default true.'),
  })
  .describe('Params of `schedules/add`.');
export type AddScheduleRequest = z.infer<typeof AddScheduleRequestSchema>;

/** Answer of `schedules/add` and `schedules/update`. */
export const ScheduleResponseSchema = z.strictObject({ schedule: ScheduleSchema }).describe('The schedule as stored.');
export type ScheduleResponse = z.infer<typeof ScheduleResponseSchema>;

/** `schedules/list` params. */
export const ListSchedulesRequestSchema = z.strictObject({}).describe('Params of `schedules/list` (none).');
export type ListSchedulesRequest = z.infer<typeof ListSchedulesRequestSchema>;

export const ListSchedulesResponseSchema = z
  .strictObject({ schedules: z.array(ScheduleSchema).describe('Every schedule, config ones first, each group by name.') })
  .describe('Result of `schedules/list`.');
export type ListSchedulesResponse = z.infer<typeof ListSchedulesResponseSchema>;

/** `schedules/update` params: the id and the fields to change; `null` clears an optional one. */
export const UpdateScheduleRequestSchema = z
  .strictObject({
    id: ScheduleIdSchema,
    name: fields.name.optional(),
    cron: fields.cron.optional(),
    timezone: fields.timezone.optional(),
    prompt: fields.prompt.optional(),
    cwd: fields.cwd.optional(),
    agent: fields.agent.nullable().optional(),
    model: fields.model.nullable().optional(),
    timeoutMs: fields.timeoutMs.optional(),
    budgetUsd: fields.budgetUsd.nullable().optional(),
    permissionMode: fields.permissionMode.optional(),
    overlap: fields.overlap.optional(),
    runMissed: fields.runMissed.optional(),
    enabled: fields.enabled.optional(),
  })
  .describe('Params of `schedules/update`.');
export type UpdateScheduleRequest = z.infer<typeof UpdateScheduleRequestSchema>;

/** `schedules/remove` params. */
export const RemoveScheduleRequestSchema = z
  .strictObject({ id: ScheduleIdSchema })
  .describe('Params of `schedules/remove`; a running run is cancelled, the history is kept.');
export type RemoveScheduleRequest = z.infer<typeof RemoveScheduleRequestSchema>;

export const RemoveScheduleResponseSchema = z.strictObject({}).describe('Result of `schedules/remove`.');
export type RemoveScheduleResponse = z.infer<typeof RemoveScheduleResponseSchema>;

/** `schedules/run` params. */
export const RunScheduleRequestSchema = z
  .strictObject({ id: ScheduleIdSchema })
  .describe('Params of `schedules/run`: run now (trigger "manual"), also when disabled; overlap rules apply.');
export type RunScheduleRequest = z.infer<typeof RunScheduleRequestSchema>;

export const RunScheduleResponseSchema = z
  .strictObject({
    runId: z.string().describe('The run\'s history row.'),
    sessionId: SessionIdSchema.nullable().describe('The run\'s session; null when the run was skipped, queued behind the running one, or failed to start.'),
    status: z
      .enum(['started', 'queued', 'skipped', 'failed'])
      .describe('started: running now; queued: runs after the current run; skipped: overlap "skip" and a run is going; failed: it could not start (see error and the history).'),
    error: z.string().optional().describe('Why it could not start, for status "failed".'),
  })
  .describe('Result of `schedules/run`, once the run has started (or was queued or skipped).');
export type RunScheduleResponse = z.infer<typeof RunScheduleResponseSchema>;

/** `schedules/history` params. */
export const ScheduleHistoryRequestSchema = z
  .strictObject({
    id: ScheduleIdSchema,
    limit: z.number().int().positive().optional().describe('Page size: default 20, at most 200.'),
    cursor: z.string().nullish().describe('`nextCursor` of the previous page.'),
  })
  .describe('Params of `schedules/history`.');
export type ScheduleHistoryRequest = z.infer<typeof ScheduleHistoryRequestSchema>;

/** One run of a schedule. */
export const ScheduleRunSchema = z
  .strictObject({
    runId: z.string(),
    scheduleId: ScheduleIdSchema,
    sessionId: SessionIdSchema.nullable().describe('Its session (load it to read the answer); null when none was created.'),
    trigger: ScheduleRunTriggerSchema,
    dueAt: z
      .string()
      .optional()
      .describe('ISO 8601: the time a cron or missed run was due (absent for a manual run). Daemons sharing a store run each schedule once per due time.'),
    startedAt: z.string().describe('ISO 8601.'),
    endedAt: z.string().nullable().describe('ISO 8601; null while running.'),
    outcome: ScheduleRunOutcomeSchema.nullable().describe('null while running.'),
    stopReason: StopReasonSchema.nullable().describe('How the turn ended, when it ran to an end.'),
    costUsd: z.number().min(0).describe('What the run spent, in US dollars.'),
    error: z.string().nullable().describe('Why it failed, timed out, was cancelled or skipped.'),
  })
  .describe('A row of a schedule\'s run history.');
export type ScheduleRun = z.infer<typeof ScheduleRunSchema>;

export const ScheduleHistoryResponseSchema = z
  .strictObject({
    runs: z.array(ScheduleRunSchema).describe('Newest first.'),
    nextCursor: z.string().nullable().describe('Pass back for the next (older) page; null on the last page.'),
  })
  .describe('Result of `schedules/history`.');
export type ScheduleHistoryResponse = z.infer<typeof ScheduleHistoryResponseSchema>;

const exampleSchedule: Schedule = {
  id: 'sch_01JA2',
  name: 'morning-review',
  cron: '0 9 * * 1-5',
  timezone: 'Europe/Berlin',
  prompt: 'Summarize yesterday\'s commits and open TODOs.',
  cwd: '/home/ada/proj',
  timeoutMs: DEFAULT_SCHEDULE_TIMEOUT_MS,
  permissionMode: 'ask',
  overlap: 'skip',
  runMissed: true,
  enabled: true,
  source: 'protocol',
  nextRunAt: '2026-11-27T08:00:00.000Z',
};

const scheduleErrors = [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound];

export const addScheduleMethod = defineMethod({
  method: 'schedules/add',
  clientMethod: 'addSchedule',
  direction: 'client-to-daemon',
  kind: 'request',
  params: AddScheduleRequestSchema,
  result: ScheduleResponseSchema,
  summary: 'Add a schedule (kept in the daemon\'s database); InvalidParams names a bad cron field, time zone or cwd.',
  acp: false,
  feature: 'schedules',
  errors: [ErrorCodes.InvalidParams],
  example: {
    params: { name: 'morning-review', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', prompt: exampleSchedule.prompt, cwd: '/home/ada/proj', runMissed: true },
    result: { schedule: exampleSchedule },
  },
});

export const listSchedulesMethod = defineMethod({
  method: 'schedules/list',
  clientMethod: 'listSchedules',
  direction: 'client-to-daemon',
  kind: 'request',
  params: ListSchedulesRequestSchema,
  result: ListSchedulesResponseSchema,
  summary: 'List every schedule, from config.json and added ones, with its next run time.',
  acp: false,
  feature: 'schedules',
  errors: [],
  example: { params: {}, result: { schedules: [exampleSchedule] } },
});

export const updateScheduleMethod = defineMethod({
  method: 'schedules/update',
  clientMethod: 'updateSchedule',
  direction: 'client-to-daemon',
  kind: 'request',
  params: UpdateScheduleRequestSchema,
  result: ScheduleResponseSchema,
  summary: 'Change fields of an added schedule; a config schedule is refused (edit config.json).',
  acp: false,
  feature: 'schedules',
  errors: scheduleErrors,
  example: { params: { id: 'sch_01JA2', enabled: false }, result: { schedule: { ...exampleSchedule, enabled: false, nextRunAt: null } } },
});

export const removeScheduleMethod = defineMethod({
  method: 'schedules/remove',
  clientMethod: 'removeSchedule',
  direction: 'client-to-daemon',
  kind: 'request',
  params: RemoveScheduleRequestSchema,
  result: RemoveScheduleResponseSchema,
  summary: 'Remove an added schedule (its running run is cancelled, its history kept); a config schedule is refused.',
  acp: false,
  feature: 'schedules',
  errors: scheduleErrors,
  example: { params: { id: 'sch_01JA2' }, result: {} },
});

export const runScheduleMethod = defineMethod({
  method: 'schedules/run',
  clientMethod: 'runSchedule',
  direction: 'client-to-daemon',
  kind: 'request',
  params: RunScheduleRequestSchema,
  result: RunScheduleResponseSchema,
  summary: 'Run a schedule now; answers with the run id and session id once the run has started.',
  acp: false,
  feature: 'schedules',
  errors: scheduleErrors,
  example: { params: { id: 'sch_01JA2' }, result: { runId: 'run_01JA3', sessionId: 'ses_01JA4', status: 'started' } },
});

export const scheduleHistoryMethod = defineMethod({
  method: 'schedules/history',
  clientMethod: 'scheduleHistory',
  direction: 'client-to-daemon',
  kind: 'request',
  params: ScheduleHistoryRequestSchema,
  result: ScheduleHistoryResponseSchema,
  summary: 'A schedule\'s runs, newest first, a page at a time.',
  acp: false,
  feature: 'schedules',
  errors: scheduleErrors,
  example: {
    params: { id: 'sch_01JA2', limit: 1 },
    result: {
      runs: [
        {
          runId: 'run_01JA3',
          scheduleId: 'sch_01JA2',
          sessionId: 'ses_01JA4',
          trigger: 'cron',
          dueAt: '2026-11-26T08:00:00.000Z',
          startedAt: '2026-11-26T08:00:00.012Z',
          endedAt: '2026-11-26T08:00:41.300Z',
          outcome: 'completed',
          stopReason: 'end_turn',
          costUsd: 0.0123,
          error: null,
        },
      ],
      nextCursor: 'WyIyMDI2LTExLTI2VDA4OjAwOjAwLjAxMloiLDQyXQ',
    },
  },
});
