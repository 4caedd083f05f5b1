import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { SessionOverviewSchema, SessionOverviewStateSchema } from './session-overview.js';

/*
 * What a dashboard asks of the whole daemon (agentd extensions): every project's sessions
 * with their state, and what the stored sessions cost. Read only; nothing is loaded.
 */

/** `daemon/sessions` params. */
export const DaemonSessionsRequestSchema = z
  .strictObject({
    cwd: z.string().optional().describe('Only sessions whose working directory is this absolute path.'),
    states: z.array(SessionOverviewStateSchema).optional().describe('Only sessions in one of these states.'),
    query: z.string().optional().describe('Only sessions whose title contains this text (case-insensitive for ASCII letters).'),
    cursor: z.string().optional().describe('`nextCursor` of the previous page, unchanged.'),
    limit: z.number().int().min(1).max(500).optional().describe('Page size, 1 to 500; default 100.'),
  })
  .describe('Params of `daemon/sessions`.');
export type DaemonSessionsRequest = z.infer<typeof DaemonSessionsRequestSchema>;

/** `daemon/sessions` result. */
export const DaemonSessionsResponseSchema = z
  .strictObject({
    sessions: z.array(SessionOverviewSchema).describe('One page, most recent activity first.'),
    nextCursor: z.string().optional().describe('Pass as `cursor` for the next page; absent on the last page.'),
    total: z.number().int().min(0).describe('Sessions matching the filters over all pages.'),
  })
  .describe('Result of `daemon/sessions`.');
export type DaemonSessionsResponse = z.infer<typeof DaemonSessionsResponseSchema>;

const day = z.string().describe('A UTC day as `YYYY-MM-DD`.');

/** `daemon/costs` params. */
export const DaemonCostsRequestSchema = z
  .strictObject({
    since: day.optional().describe('First UTC day counted, `YYYY-MM-DD`; default 29 days before `until`.'),
    until: day.optional().describe('Last UTC day counted, `YYYY-MM-DD`; default today (UTC).'),
    cwd: z.string().optional().describe('Only sessions whose working directory is this absolute path.'),
  })
  .describe('Params of `daemon/costs`.');
export type DaemonCostsRequest = z.infer<typeof DaemonCostsRequestSchema>;

const requests = z.number().int().min(0).describe('Messages a model produced: its answers, and the summaries of compactions.');

/** `daemon/costs` result. */
export const DaemonCostsResponseSchema = z
  .strictObject({
    days: z
      .array(
        z.strictObject({
          day,
          model: z.string().describe('`provider/model` that answered.'),
          costUsd: z.number().min(0).describe('USD spent that day on that model.'),
          requests,
          inputTokens: z.number().int().min(0).describe('Input tokens sent.'),
          outputTokens: z.number().int().min(0).describe('Output tokens received.'),
        }),
      )
      .describe('Totals per UTC day and model, sorted by day then model; days without spending are absent.'),
    byModel: z
      .array(z.strictObject({ model: z.string().describe('`provider/model`.'), costUsd: z.number().min(0).describe('USD over the range.'), requests }))
      .describe('Totals per model over the range, most expensive first.'),
    totalUsd: z.number().min(0).describe('USD over the range.'),
    since: day.describe('First UTC day counted.'),
    until: day.describe('Last UTC day counted.'),
  })
  .describe('Result of `daemon/costs`.');
export type DaemonCostsResponse = z.infer<typeof DaemonCostsResponseSchema>;

export const daemonSessionsMethod = defineMethod({
  method: 'daemon/sessions',
  clientMethod: 'daemonSessions',
  direction: 'client-to-daemon',
  kind: 'request',
  params: DaemonSessionsRequestSchema,
  result: DaemonSessionsResponseSchema,
  summary: 'Sessions across every project with state, mode, model and cost, filtered and paged; kept live by `session_changed` and `session_removed` daemon events.',
  acp: false,
  feature: 'daemon',
  errors: [ErrorCodes.InvalidParams],
  example: {
    params: { states: ['running', 'waiting_permission'], limit: 50 },
    result: {
      sessions: [
        {
          sessionId: 'ses_01J9Z',
          cwd: '/home/ada/project',
          title: 'Fix the flaky test',
          state: 'waiting_permission',
          mode: 'build',
          model: 'anthropic/claude-sonnet-4-5',
          costUsd: 0.0412,
          createdAt: '2025-06-01T09:12:00Z',
          updatedAt: '2025-06-01T09:30:00Z',
          live: true,
          pendingPermission: { toolCallId: 'call_7', title: 'bash: npm test' },
        },
      ],
      total: 1,
    },
  },
});

export const daemonCostsMethod = defineMethod({
  method: 'daemon/costs',
  clientMethod: 'daemonCosts',
  direction: 'client-to-daemon',
  kind: 'request',
  params: DaemonCostsRequestSchema,
  result: DaemonCostsResponseSchema,
  summary: 'What the stored sessions cost per UTC day and model over a range of days (default the last 30), with totals.',
  acp: false,
  feature: 'daemon',
  errors: [ErrorCodes.InvalidParams],
  example: {
    params: { since: '2025-06-01', until: '2025-06-02' },
    result: {
      days: [
        { day: '2025-06-01', model: 'anthropic/claude-sonnet-4-5', costUsd: 0.84, requests: 12, inputTokens: 183000, outputTokens: 9100 },
        { day: '2025-06-02', model: 'openai/gpt-5-mini', costUsd: 0.05, requests: 4, inputTokens: 40000, outputTokens: 2000 },
      ],
      byModel: [
        { model: 'anthropic/claude-sonnet-4-5', costUsd: 0.84, requests: 12 },
        { model: 'openai/gpt-5-mini', costUsd: 0.05, requests: 4 },
      ],
      totalUsd: 0.89,
      since: '2025-06-01',
      until: '2025-06-02',
    },
  },
});
