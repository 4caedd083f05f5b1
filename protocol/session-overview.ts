import { z } from 'zod';
import { SessionIdSchema } from './meta.js';

/*
 * One session as a dashboard lists it: its stored facts with what it is doing now. Shared
 * by `daemon/sessions` and the `session_changed` daemon event, so a list kept live by the
 * events holds exactly what a fresh query would.
 */

export const SessionOverviewStateSchema = z
  .enum(['idle', 'running', 'compacting', 'aborting', 'waiting_permission', 'failed', 'closed'])
  .describe(
    '`idle`, `running`, `compacting`, `aborting`: a live session\'s own state; `waiting_permission`: a permission question of the session (or one of its sub-agents) is open; `failed`: not running and its last turn ended in an error (live or stored); `closed`: stored only, its last turn did not fail.',
  );
export type SessionOverviewState = z.infer<typeof SessionOverviewStateSchema>;

export const SessionOverviewSchema = z
  .strictObject({
    sessionId: SessionIdSchema,
    cwd: z.string().describe('Absolute working directory (the project folder).'),
    title: z.string().nullable().describe('Title, usually from the first prompt; null until there is one.'),
    state: SessionOverviewStateSchema,
    mode: z.string().describe('Current mode (agent), e.g. `build`.'),
    model: z.string().nullable().describe('Chosen model as `provider/model`; null: the project\'s default model.'),
    costUsd: z.number().min(0).describe('Total cost of the session\'s model calls so far, in USD.'),
    createdAt: z.string().describe('ISO 8601 UTC time it was created.'),
    updatedAt: z.string().describe('ISO 8601 UTC time of the last activity.'),
    live: z.boolean().describe('Loaded in the daemon now.'),
    lastError: z.string().optional().describe('Why the last turn failed; set with `failed`.'),
    pendingPermission: z
      .strictObject({
        toolCallId: z.string().describe('The tool call the open question is about.'),
        title: z.string().describe('The tool call\'s title as the question shows it.'),
      })
      .optional()
      .describe('The open permission question; set with `waiting_permission`.'),
  })
  .describe('A session across every project, with its state now.');
export type SessionOverview = z.infer<typeof SessionOverviewSchema>;
