import { z } from 'zod';
import { McpServerStateSchema } from './daemon-events.js';
import { defineMethod } from './method-descriptor.js';
import { SessionIdSchema } from './meta.js';

/*
 * `daemon/health` (agentd extension): what a dashboard's health view shows at a glance —
 * the providers and their circuit breakers, recent retries and fallbacks, MCP servers,
 * the sandbox, and configuration edits applied or refused. Read only.
 */

/** `daemon/health` params (none). */
export const DaemonHealthRequestSchema = z.strictObject({}).describe('Params of `daemon/health` (none).');
export type DaemonHealthRequest = z.infer<typeof DaemonHealthRequestSchema>;

export const ProviderHealthSchema = z
  .strictObject({
    id: z.string().describe('Provider id (the part before the slash of `provider/model`).'),
    type: z.string().describe('Its wire protocol, e.g. `anthropic-messages`, `openai-chat`; `unknown` when it has none.'),
    project: z.string().nullable().describe('The settings root whose own trusted config defines it; null: the user\'s config.'),
    hasKey: z.boolean().describe('Whether it can be used: a key (or login, or own credentials) is there, or none is needed.'),
    keySource: z
      .enum(['env', 'config', 'login', 'none', 'not_needed'])
      .describe('Where its credential comes from: an environment variable, the config, a login file; `none`: missing; `not_needed`: it uses none (a local server) or its own credentials (Vertex, Bedrock).'),
    baseUrl: z.string().nullable().describe('Where its requests go (credentials in the URL removed); null when it has none.'),
    breaker: z
      .strictObject({
        state: z.enum(['closed', 'open', 'half_open']).describe('closed: healthy; open: requests fail fast; half_open: the next request probes.'),
        consecutiveFailures: z.number().int().min(0).describe('Availability failures in a row.'),
        openedAt: z.string().nullable().describe('ISO 8601 UTC time it last opened; null while closed.'),
      })
      .describe('Its circuit breaker, shared by all its models.'),
  })
  .describe('A provider set up in the user\'s config, a project\'s, or the environment.');

export const ProviderIncidentSchema = z
  .strictObject({
    at: z.string().describe('ISO 8601 UTC time.'),
    kind: z.enum(['retry', 'fallback', 'breaker_opened', 'breaker_closed']).describe('A retried request, a fallback model taking over, a breaker opening or closing.'),
    provider: z.string().describe('Provider id (of the failing model, for a fallback).'),
    model: z.string().optional().describe('`provider/model` or the model id, when known.'),
    sessionId: SessionIdSchema.optional().describe('The session whose request it was.'),
    detail: z.string().describe('What happened, for people.'),
  })
  .describe('A provider incident.');

export const McpServerHealthSchema = z
  .strictObject({
    name: z.string().describe('Server name.'),
    sessionId: SessionIdSchema.optional().describe('Set for a session\'s own server; absent for one of the user\'s config.'),
    state: McpServerStateSchema,
    tools: z.number().int().min(0).describe('Tools it offers.'),
    lastError: z.string().nullable().describe('Its last failure; null when it has had none.'),
  })
  .describe('An MCP server as last reported.');

export const ConfigChangeSchema = z
  .strictObject({
    at: z.string().describe('ISO 8601 UTC time.'),
    file: z.string().describe('The file that changed.'),
    outcome: z.enum(['reloaded', 'rejected']).describe('Applied, or refused (the last good configuration stays).'),
    path: z.string().optional().describe('JSON path of the problem, for a rejection that has one.'),
    problem: z.string().optional().describe('What is wrong and how to fix it, for a rejection.'),
  })
  .describe('A configuration edit applied or refused.');

/** `daemon/health` result. */
export const DaemonHealthResponseSchema = z
  .strictObject({
    providers: z.array(ProviderHealthSchema).describe('Providers by scope (the user\'s first), then id.'),
    recent: z.array(ProviderIncidentSchema).describe('Retries, fallbacks and breaker changes, newest first, at most 100.'),
    mcpServers: z.array(McpServerHealthSchema).describe('Every MCP server reported since the daemon started, by name.'),
    sandbox: z
      .strictObject({
        kind: z.enum(['bubblewrap', 'none']).describe('How bash runs by the user\'s config.'),
        available: z.boolean().describe('Whether bubblewrap works on this machine.'),
        hidden: z.array(z.string()).describe('Paths the sandbox hides from commands (credentials, agentd\'s own files, sockets, `denyRead`).'),
        detail: z.string().describe('A sentence on the sandbox, or why there is none and how to get one.'),
      })
      .describe('The sandbox of bash.'),
    config: z.array(ConfigChangeSchema).describe('Configuration edits, newest first, at most 50.'),
  })
  .describe('Result of `daemon/health`.');
export type DaemonHealthResponse = z.infer<typeof DaemonHealthResponseSchema>;
export type ProviderIncident = z.infer<typeof ProviderIncidentSchema>;
export type McpServerHealth = z.infer<typeof McpServerHealthSchema>;
export type ConfigChange = z.infer<typeof ConfigChangeSchema>;

export const daemonHealthMethod = defineMethod({
  method: 'daemon/health',
  clientMethod: 'daemonHealth',
  direction: 'client-to-daemon',
  kind: 'request',
  params: DaemonHealthRequestSchema,
  result: DaemonHealthResponseSchema,
  summary: 'Providers with their keys and circuit breakers, recent retries and fallbacks, MCP servers, the sandbox and configuration edits.',
  acp: false,
  feature: 'daemon',
  errors: [],
  example: {
    params: {},
    result: {
      providers: [
        {
          id: 'anthropic',
          type: 'anthropic-messages',
          project: null,
          hasKey: true,
          keySource: 'env',
          baseUrl: 'https://api.anthropic.com',
          breaker: { state: 'closed', consecutiveFailures: 0, openedAt: null },
        },
      ],
      recent: [{ at: '2025-06-01T09:30:00.000Z', kind: 'retry', provider: 'anthropic', sessionId: 'ses_01J9Z', detail: 'attempt 1 in 2000 ms: 529 overloaded' }],
      mcpServers: [{ name: 'github', state: 'running', tools: 12, lastError: null }],
      sandbox: { kind: 'bubblewrap', available: true, hidden: ['/home/ada/.ssh'], detail: 'bash runs in bubblewrap' },
      config: [{ at: '2025-06-01T09:00:00.000Z', file: '/home/ada/.config/agentd/config.json', outcome: 'rejected', path: 'model', problem: 'expected "provider/model"' }],
    },
  },
});
