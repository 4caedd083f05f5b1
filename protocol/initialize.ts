import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema, agentdMeta } from './meta.js';

/*
 * `initialize` (https://agentclientprotocol.com/protocol/v1/initialization): version and
 * capability exchange. ACP fields are mirrored from schema.json; agentd's own
 * negotiation rides in `_meta.agentd` on both sides.
 */

/** The ACP protocol version agentd speaks. */
export const ACP_PROTOCOL_VERSION = 1;
/** The version of agentd's extensions (`_meta.agentd`, extension methods); bumped on breaking change. */
export const AGENTD_PROTOCOL_VERSION = 1;

/** Name and version of a client or agent. */
export const ImplementationSchema = z
  .looseObject({
    name: z.string().describe('Programmatic name, e.g. `zed`.'),
    title: z.string().nullish().describe('Display name.'),
    version: z.string().describe('Version, e.g. `1.0.0`.'),
    _meta: MetaSchema,
  })
  .describe('Identifies a client or agent implementation.');
export type Implementation = z.infer<typeof ImplementationSchema>;

/**
 * ACP reads client capabilities "default on error": a capability sent as `null` or `[]`
 * is taken as absent (the default). That is how the natural empty value comes out of
 * some editors' JSON encoders (Lua's `{}` encodes as `[]`, Emacs Lisp's `nil` as `null`).
 */
const defaultWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === null || (Array.isArray(value) && value.length === 0) ? undefined : value), schema.optional());

const capability = (what: string) =>
  z.looseObject({ _meta: MetaSchema }).nullish().describe(`Present (even as {}) when ${what}.`);

/** Session-related client capabilities (ACP `ClientSessionCapabilities`). */
export const ClientSessionCapabilitiesSchema = z
  .looseObject({
    compaction: z.looseObject({}).nullish().describe('`{}` if the client renders `compaction_update` updates.'),
    configOptions: z
      .looseObject({ boolean: capability('boolean config options are supported'), _meta: MetaSchema })
      .nullish()
      .describe('Config option extensions the client supports.'),
    notices: z.looseObject({}).nullish().describe('`{}` if the client shows `notice` updates.'),
    _meta: MetaSchema,
  })
  .describe('Session-related capabilities of the client.');
export type ClientSessionCapabilities = z.infer<typeof ClientSessionCapabilitiesSchema>;

/** What the client can do for the agent. */
export const ClientCapabilitiesSchema = z
  .looseObject({
    fs: defaultWhenEmpty(
      z.looseObject({
        readTextFile: z.boolean().optional().describe('Supports `fs/read_text_file`.'),
        writeTextFile: z.boolean().optional().describe('Supports `fs/write_text_file`.'),
        _meta: MetaSchema,
      }),
    ).describe('File system methods the client serves.'),
    terminal: z.boolean().optional().describe('Supports all `terminal/*` methods.'),
    session: defaultWhenEmpty(ClientSessionCapabilitiesSchema.nullish()),
    auth: defaultWhenEmpty(
      z.looseObject({ terminal: z.boolean().optional().describe('Supports terminal auth methods.'), _meta: MetaSchema }),
    ).describe('Authentication method types the client supports.'),
    elicitation: defaultWhenEmpty(
      z.looseObject({ form: capability('form elicitation works'), url: capability('URL elicitation works'), _meta: MetaSchema }).nullish(),
    ).describe('Elicitation modes the client supports.'),
    _meta: MetaSchema,
  })
  .describe('Capabilities of the client.');
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** agentd's request-side `_meta.agentd` on `initialize`. Strict: typos are errors. */
export const AgentdInitializeRequestMetaSchema = z
  .strictObject({
    token: z
      .string()
      .optional()
      .describe('TCP auth token (the token file\'s contents). Required on TCP; ignored on stdio and unix sockets.'),
    events: z.boolean().optional().describe('true to receive rich `agentd/event` and `agentd/daemonEvent` notifications.'),
  })
  .describe('agentd options a client sends in `initialize` `_meta.agentd`.');
export type AgentdInitializeRequestMeta = z.infer<typeof AgentdInitializeRequestMetaSchema>;

/** `initialize` params. */
export const InitializeRequestSchema = z
  .looseObject({
    protocolVersion: z.number().int().min(0).max(65535).describe('Latest ACP version the client supports (1).'),
    clientCapabilities: defaultWhenEmpty(ClientCapabilitiesSchema).describe('Capabilities of the client; `null`, `[]` or absent mean the defaults.'),
    clientInfo: ImplementationSchema.nullish(),
    _meta: agentdMeta(AgentdInitializeRequestMetaSchema, 'agentd auth and opt-ins.'),
  })
  .describe('Params of `initialize`.');
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

/** Content types the agent accepts in `session/prompt`. */
export const PromptCapabilitiesSchema = z
  .looseObject({
    image: z.boolean().optional().describe('Accepts `image` blocks.'),
    audio: z.boolean().optional().describe('Accepts `audio` blocks.'),
    embeddedContext: z.boolean().optional().describe('Accepts `resource` blocks.'),
    _meta: MetaSchema,
  })
  .describe('Prompt content the agent accepts.');
export type PromptCapabilities = z.infer<typeof PromptCapabilitiesSchema>;

/** MCP transports the agent can connect to, beyond stdio. */
export const McpCapabilitiesSchema = z
  .looseObject({
    http: z.boolean().optional().describe('Connects to `http` MCP servers.'),
    sse: z.boolean().optional().describe('Connects to `sse` MCP servers.'),
    _meta: MetaSchema,
  })
  .describe('MCP transports the agent supports.');
export type McpCapabilities = z.infer<typeof McpCapabilitiesSchema>;

/** Optional session methods the agent serves; each present (as {}) when supported. */
export const SessionCapabilitiesSchema = z
  .looseObject({
    list: capability('`session/list` is served'),
    delete: capability('`session/delete` is served'),
    resume: capability('`session/resume` is served'),
    close: capability('`session/close` is served'),
    additionalDirectories: capability('`additionalDirectories` is honoured'),
    _meta: MetaSchema,
  })
  .describe('Optional session methods the agent supports.');
export type SessionCapabilities = z.infer<typeof SessionCapabilitiesSchema>;

/** What the agent can do. */
export const AgentCapabilitiesSchema = z
  .looseObject({
    loadSession: z.boolean().optional().describe('Serves `session/load`.'),
    promptCapabilities: PromptCapabilitiesSchema.optional(),
    mcpCapabilities: McpCapabilitiesSchema.optional(),
    sessionCapabilities: SessionCapabilitiesSchema.optional(),
    auth: z
      .looseObject({ logout: capability('`logout` is served'), _meta: MetaSchema })
      .optional()
      .describe('Authentication capabilities.'),
    _meta: MetaSchema,
  })
  .describe('Capabilities of the agent.');
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>;

/** An authentication method (agentd needs none over ACP; kept for completeness). */
export const AuthMethodSchema = z
  .looseObject({
    id: z.string().describe('Method id.'),
    name: z.string().describe('Display name.'),
    description: z.string().nullish().describe('Details.'),
    type: z.string().optional().describe('`terminal`, or absent for agent-handled auth.'),
    _meta: MetaSchema,
  })
  .describe('An authentication method.');
export type AuthMethod = z.infer<typeof AuthMethodSchema>;

/** agentd's response-side `_meta.agentd`. Open, so older clients accept newer daemons. */
export const AgentdInitializeResponseMetaSchema = z
  .looseObject({
    version: z.string().describe('agentd package version.'),
    protocolVersion: z.number().int().min(1).describe('agentd extension protocol version (AGENTD_PROTOCOL_VERSION).'),
    socket: z.string().optional().describe('Path of the daemon\'s unix socket, for further connections.'),
    features: z
      .array(z.string())
      .describe('Extension features served: the `feature` names of methods.ts (see `extensionFeatures()`).'),
  })
  .describe('agentd information in the `initialize` response `_meta.agentd`.');
export type AgentdInitializeResponseMeta = z.infer<typeof AgentdInitializeResponseMetaSchema>;

/** `initialize` result. */
export const InitializeResponseSchema = z
  .looseObject({
    protocolVersion: z.number().int().min(0).max(65535).describe('The ACP version in use (1).'),
    agentCapabilities: AgentCapabilitiesSchema.optional(),
    authMethods: z.array(AuthMethodSchema).optional().describe('Always empty for agentd.'),
    agentInfo: ImplementationSchema.nullish(),
    _meta: agentdMeta(AgentdInitializeResponseMetaSchema, 'agentd version and features.'),
  })
  .describe('Result of `initialize`.');
export type InitializeResponse = z.infer<typeof InitializeResponseSchema>;

export const initializeMethod = defineMethod({
  method: 'initialize',
  clientMethod: 'initialize',
  direction: 'client-to-daemon',
  kind: 'request',
  params: InitializeRequestSchema,
  result: InitializeResponseSchema,
  summary: 'Negotiate the protocol version and exchange capabilities; on TCP, authenticate with the token.',
  acp: true,
  feature: 'lifecycle',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.Unauthorized],
  example: {
    params: {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'my-editor', version: '0.3.0' },
      _meta: { agentd: { events: true } },
    },
    result: {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {}, delete: {}, resume: {}, close: {}, additionalDirectories: {} },
      },
      authMethods: [],
      agentInfo: { name: 'agentd', version: '0.1.0' },
      _meta: {
        agentd: { version: '0.1.0', protocolVersion: 1, features: ['steering', 'tools', 'hooks', 'schedules', 'daemon', 'dashboard', 'events', 'cancellation'] },
      },
    },
  },
});
