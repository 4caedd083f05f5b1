import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { McpServerSchema } from './mcp-server.js';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema, SessionIdSchema, agentdMeta } from './meta.js';
import { SessionConfigOptionSchema, SessionModeStateSchema } from './session-config.js';

/*
 * Session lifecycle (https://agentclientprotocol.com/protocol/v1/session-setup and the
 * session-list, session-resume, session-close and session-delete RFDs as merged into
 * schema.json): new, load (replays history as `session/update`), resume (no replay),
 * list, close (stop and free, keep history), delete (remove history).
 */

const cwd = z.string().describe('Working directory; must be an absolute path.');
const additionalDirectories = z
  .array(z.string())
  .optional()
  .describe('Extra absolute workspace roots (needs `sessionCapabilities.additionalDirectories`).');
const mcpServers = z.array(McpServerSchema).describe('MCP servers to connect for this session (may be empty).');

/** The state every session-opening answer carries. */
const sessionState = {
  modes: SessionModeStateSchema.nullish().describe('Modes (agents) and the current one.'),
  configOptions: z.array(SessionConfigOptionSchema).nullish().describe('Settings such as the model.'),
};

/** One MCP server of the session as it stands when the answer is sent. */
export const McpServerReportSchema = z
  .looseObject({
    name: z.string().describe('Server name.'),
    state: z.string().describe('`starting`, `running`, `restarting`, `failed` or `stopped` (new states may be added).'),
    tools: z.array(z.string()).describe('Names of the tools it offers (empty until it runs).'),
    error: z.string().optional().describe('Why it failed.'),
  })
  .describe('An MCP server of the session and its state.');
export type McpServerReport = z.infer<typeof McpServerReportSchema>;

const mcpServerReports = z.array(McpServerReportSchema).describe('The session\'s MCP servers; they start in the background.');
const problems = z
  .array(z.string())
  .optional()
  .describe('What is wrong for this directory (a rejected config edit, agent files that failed to load); absent when nothing is.');
const state = z.enum(['idle', 'running']).describe('Whether a turn (or a compaction) is running.');

/** agentd's `_meta.agentd` on the `session/new` result. */
export const AgentdNewSessionMetaSchema = z
  .looseObject({
    sandbox: z
      .looseObject({
        mode: z.enum(['bubblewrap', 'none']).describe('`bubblewrap`, or `none` (then each bash command asks permission).'),
        reason: z.string().optional().describe('Why there is no sandbox.'),
      })
      .describe('How bash runs.'),
    mcpServers: mcpServerReports,
    problems,
  })
  .describe('agentd details of a new session.');
export type AgentdNewSessionMeta = z.infer<typeof AgentdNewSessionMetaSchema>;

/** agentd's `_meta.agentd` on the `session/load` result. */
export const AgentdLoadSessionMetaSchema = z
  .looseObject({
    state,
    runningTurnId: z.string().optional().describe('The turn running now, if one is.'),
    interruptedTurns: z.array(z.string()).describe('Ids of the stored turns that were cut short.'),
    mcpServers: mcpServerReports,
    problems,
  })
  .describe('agentd details of a loaded session.');
export type AgentdLoadSessionMeta = z.infer<typeof AgentdLoadSessionMetaSchema>;

/** agentd's `_meta.agentd` on the `session/resume` result. */
export const AgentdResumeSessionMetaSchema = z
  .looseObject({ state, mcpServers: mcpServerReports })
  .describe('agentd details of a resumed session.');
export type AgentdResumeSessionMeta = z.infer<typeof AgentdResumeSessionMetaSchema>;

/** `session/new` params. */
export const NewSessionRequestSchema = z
  .looseObject({ cwd, additionalDirectories, mcpServers, _meta: MetaSchema })
  .describe('Params of `session/new`.');
export type NewSessionRequest = z.infer<typeof NewSessionRequestSchema>;

/** `session/new` result. */
export const NewSessionResponseSchema = z
  .looseObject({ sessionId: SessionIdSchema, ...sessionState, _meta: agentdMeta(AgentdNewSessionMetaSchema, 'Sandbox, MCP servers and problems.') })
  .describe('Result of `session/new`.');
export type NewSessionResponse = z.infer<typeof NewSessionResponseSchema>;

/** `session/load` params. */
export const LoadSessionRequestSchema = z
  .looseObject({ sessionId: SessionIdSchema, cwd, additionalDirectories, mcpServers, _meta: MetaSchema })
  .describe('Params of `session/load`.');
export type LoadSessionRequest = z.infer<typeof LoadSessionRequestSchema>;

/** `session/load` result, sent after the history replay. */
export const LoadSessionResponseSchema = z
  .looseObject({ ...sessionState, _meta: agentdMeta(AgentdLoadSessionMetaSchema, 'State, interrupted turns, MCP servers and problems.') })
  .describe('Result of `session/load`.');
export type LoadSessionResponse = z.infer<typeof LoadSessionResponseSchema>;

/** `session/resume` params (`mcpServers` optional, unlike load). */
export const ResumeSessionRequestSchema = z
  .looseObject({ sessionId: SessionIdSchema, cwd, additionalDirectories, mcpServers: mcpServers.optional(), _meta: MetaSchema })
  .describe('Params of `session/resume`.');
export type ResumeSessionRequest = z.infer<typeof ResumeSessionRequestSchema>;

/** `session/resume` result. */
export const ResumeSessionResponseSchema = z
  .looseObject({ ...sessionState, _meta: agentdMeta(AgentdResumeSessionMetaSchema, 'State and MCP servers.') })
  .describe('Result of `session/resume`.');
export type ResumeSessionResponse = z.infer<typeof ResumeSessionResponseSchema>;

/** `session/list` params. */
export const ListSessionsRequestSchema = z
  .looseObject({
    cwd: z.string().nullish().describe('Only sessions with this absolute working directory.'),
    cursor: z.string().nullish().describe('`nextCursor` of the previous page.'),
    _meta: MetaSchema,
  })
  .describe('Params of `session/list`.');
export type ListSessionsRequest = z.infer<typeof ListSessionsRequestSchema>;

/** One stored session. */
export const SessionInfoSchema = z
  .looseObject({
    sessionId: SessionIdSchema,
    cwd: z.string().describe('Absolute working directory.'),
    additionalDirectories: z.array(z.string()).optional().describe('Extra absolute workspace roots.'),
    title: z.string().nullish().describe('Title, usually from the first prompt.'),
    updatedAt: z.string().nullish().describe('ISO 8601 time of the last activity.'),
    _meta: MetaSchema,
  })
  .describe('A session as listed by `session/list`.');
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** `session/list` result, newest first. */
export const ListSessionsResponseSchema = z
  .looseObject({
    sessions: z.array(SessionInfoSchema).describe('One page of sessions, most recently updated first.'),
    nextCursor: z.string().nullish().describe('Pass as `cursor` to get the next page; absent on the last page.'),
    _meta: MetaSchema,
  })
  .describe('Result of `session/list`.');
export type ListSessionsResponse = z.infer<typeof ListSessionsResponseSchema>;

/** `session/close` params. */
export const CloseSessionRequestSchema = z
  .looseObject({ sessionId: SessionIdSchema, _meta: MetaSchema })
  .describe('Params of `session/close`.');
export type CloseSessionRequest = z.infer<typeof CloseSessionRequestSchema>;

/** `session/close` result. */
export const CloseSessionResponseSchema = z.looseObject({ _meta: MetaSchema }).describe('Result of `session/close`.');
export type CloseSessionResponse = z.infer<typeof CloseSessionResponseSchema>;

/** `session/delete` params. */
export const DeleteSessionRequestSchema = z
  .looseObject({ sessionId: SessionIdSchema, _meta: MetaSchema })
  .describe('Params of `session/delete`.');
export type DeleteSessionRequest = z.infer<typeof DeleteSessionRequestSchema>;

/** `session/delete` result. */
export const DeleteSessionResponseSchema = z.looseObject({ _meta: MetaSchema }).describe('Result of `session/delete`.');
export type DeleteSessionResponse = z.infer<typeof DeleteSessionResponseSchema>;

/*
 * `session/info` (agentd extension): one session's facts without opening it, for an
 * editor's session picker or a dashboard that polls. A session that is not live stays
 * unloaded, so asking never starts its MCP servers or replays its history.
 */

/** `session/info` params. */
export const SessionInfoRequestSchema = z
  .strictObject({ sessionId: SessionIdSchema })
  .describe('Params of `session/info`.');
export type SessionInfoRequest = z.infer<typeof SessionInfoRequestSchema>;

/** What a session is doing: a live session's own state, or `closed` when it is only stored. */
export const SessionActivitySchema = z
  .enum(['idle', 'running', 'compacting', 'aborting', 'closed'])
  .describe('`idle`, `running` (a turn), `compacting`, `aborting` (stopping a turn): a live session; `closed`: stored only.');
export type SessionActivity = z.infer<typeof SessionActivitySchema>;

/** `session/info` result. */
export const SessionInfoResponseSchema = z
  .strictObject({
    sessionId: SessionIdSchema,
    cwd: z.string().describe('Absolute working directory.'),
    additionalDirectories: z.array(z.string()).describe('Extra absolute workspace roots (may be empty).'),
    title: z.string().nullable().describe('Title, usually from the first prompt; null until there is one.'),
    mode: z.string().describe('Current mode (agent), e.g. `build`.'),
    model: z.string().nullable().describe('Chosen model as `provider/model`; null: the project\'s default model.'),
    costUsd: z.number().min(0).describe('Total cost of the session\'s model calls so far, in USD.'),
    createdAt: z.string().describe('ISO 8601 UTC time it was created.'),
    updatedAt: z.string().describe('ISO 8601 UTC time of the last activity.'),
    live: z.boolean().describe('Loaded in the daemon now (opened by a client or a run and not closed since).'),
    state: SessionActivitySchema,
  })
  .describe('Result of `session/info`.');
export type SessionInfoResponse = z.infer<typeof SessionInfoResponseSchema>;

const exampleModes = {
  currentModeId: 'build',
  availableModes: [
    { id: 'build', name: 'Build' },
    { id: 'plan', name: 'Plan', description: 'Read-only: investigate and propose a plan.' },
  ],
};
const lookup = [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound] as const;

export const newSessionMethod = defineMethod({
  method: 'session/new',
  clientMethod: 'newSession',
  direction: 'client-to-daemon',
  kind: 'request',
  params: NewSessionRequestSchema,
  result: NewSessionResponseSchema,
  summary: 'Create a session in a working directory, optionally with MCP servers.',
  acp: true,
  feature: 'sessions',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ProviderNotConfigured],
  example: {
    params: { cwd: '/home/ada/project', mcpServers: [] },
    result: { sessionId: 'ses_01J9Z', modes: exampleModes },
  },
});

export const loadSessionMethod = defineMethod({
  method: 'session/load',
  clientMethod: 'loadSession',
  direction: 'client-to-daemon',
  kind: 'request',
  params: LoadSessionRequestSchema,
  result: LoadSessionResponseSchema,
  summary: 'Open a stored session; its history is replayed as `session/update` notifications before the answer.',
  acp: true,
  feature: 'sessions',
  errors: lookup,
  example: {
    params: { sessionId: 'ses_01J9Z', cwd: '/home/ada/project', mcpServers: [] },
    result: { modes: exampleModes },
  },
});

export const resumeSessionMethod = defineMethod({
  method: 'session/resume',
  clientMethod: 'resumeSession',
  direction: 'client-to-daemon',
  kind: 'request',
  params: ResumeSessionRequestSchema,
  result: ResumeSessionResponseSchema,
  summary: 'Reattach to a stored session without replaying its history.',
  acp: true,
  feature: 'sessions',
  errors: lookup,
  example: { params: { sessionId: 'ses_01J9Z', cwd: '/home/ada/project' }, result: { modes: exampleModes } },
});

export const listSessionsMethod = defineMethod({
  method: 'session/list',
  clientMethod: 'listSessions',
  direction: 'client-to-daemon',
  kind: 'request',
  params: ListSessionsRequestSchema,
  result: ListSessionsResponseSchema,
  summary: 'List stored sessions, newest first, optionally for one working directory; paginated by cursor.',
  acp: true,
  feature: 'sessions',
  errors: [ErrorCodes.InvalidParams],
  example: {
    params: { cwd: '/home/ada/project' },
    result: {
      sessions: [
        { sessionId: 'ses_01J9Z', cwd: '/home/ada/project', title: 'Fix the flaky test', updatedAt: '2025-06-01T09:30:00Z' },
      ],
    },
  },
});

export const closeSessionMethod = defineMethod({
  method: 'session/close',
  clientMethod: 'closeSession',
  direction: 'client-to-daemon',
  kind: 'request',
  params: CloseSessionRequestSchema,
  result: CloseSessionResponseSchema,
  summary: 'Cancel any running turn and free the session\'s resources; its history stays stored.',
  acp: true,
  feature: 'sessions',
  errors: lookup,
  example: { params: { sessionId: 'ses_01J9Z' }, result: {} },
});

export const deleteSessionMethod = defineMethod({
  method: 'session/delete',
  clientMethod: 'deleteSession',
  direction: 'client-to-daemon',
  kind: 'request',
  params: DeleteSessionRequestSchema,
  result: DeleteSessionResponseSchema,
  summary: 'Close the session and delete its stored history.',
  acp: true,
  feature: 'sessions',
  errors: lookup,
  example: { params: { sessionId: 'ses_01J9Z' }, result: {} },
});

export const sessionInfoMethod = defineMethod({
  method: 'session/info',
  clientMethod: 'sessionInfo',
  direction: 'client-to-daemon',
  kind: 'request',
  params: SessionInfoRequestSchema,
  result: SessionInfoResponseSchema,
  summary: 'One session\'s title, cwd, mode, model, cost and state, without loading or replaying it.',
  acp: false,
  feature: 'daemon',
  errors: lookup,
  example: {
    params: { sessionId: 'ses_01J9Z' },
    result: {
      sessionId: 'ses_01J9Z',
      cwd: '/home/ada/project',
      additionalDirectories: [],
      title: 'Fix the flaky test',
      mode: 'build',
      model: 'anthropic/claude-sonnet-4-5',
      costUsd: 0.0412,
      createdAt: '2025-06-01T09:12:00Z',
      updatedAt: '2025-06-01T09:30:00Z',
      live: true,
      state: 'running',
    },
  },
});
