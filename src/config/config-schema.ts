/**
 * config.json, as a strict zod schema: unknown keys are errors, so a typo never silently
 * does nothing. Both the user file and the project file (`.agentd/config.json`) follow it;
 * `loadConfig` validates each and merges them. Every field is optional.
 */
import path from 'node:path';
import { z } from 'zod';
import { describeCronProblem } from './describe-cron-problem.js';
import { describeTimezoneProblem } from './describe-timezone-problem.js';
import { rootProblem } from './folder-roots.js';
import { parsePermissionRule } from './parse-permission-rule.js';
import { ModelReferenceSchema, ProviderConfigSchema, ProviderIdSchema } from './provider-config-schema.js';

export type { ModelOverride, ProviderConfig, ProviderType } from './provider-config-schema.js';

/** `server.maxFrameBytes` when unset: the largest JSON-RPC message accepted, 32 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** `server.idleExitMs` when unset: a daemon started on demand exits after 30 minutes with nothing to do. */
export const DEFAULT_IDLE_EXIT_MS = 30 * 60 * 1000;

const nonEmpty = z.string().min(1);
const stringMap = z.record(z.string(), z.string());

/** A named agent (mode): its own model, prompt and tool access. */
export const AgentConfigSchema = z.strictObject({
  /** One line shown in mode pickers and to the model when it delegates. */
  description: z.string().optional(),
  /** `provider/model` for this agent; the top-level `model` when unset. */
  model: ModelReferenceSchema.optional(),
  /** Sampling temperature, 0 to 2. */
  temperature: z.number().min(0).max(2).optional(),
  /** Most model requests per turn for this agent. */
  maxTurns: z.int().min(1).optional(),
  /** `full` may edit and run commands, `read` only reads, `search` only searches. */
  access: z.enum(['full', 'read', 'search']).optional(),
  /** Tool names the agent may use; all tools its access allows when unset. */
  tools: z.array(nonEmpty).optional(),
  /** System prompt text added for this agent. */
  prompt: z.string().optional(),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/** A rule string, checked when the config loads rather than on the first tool call. */
const ruleString = nonEmpty.superRefine((text, ctx) => {
  try {
    parsePermissionRule(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** Tool permission rules, e.g. `"Bash(npm test:*)"` or `"Edit(src/**)"`. */
export const PermissionsConfigSchema = z.strictObject({
  /** `ask` asks before risky tools, `acceptEdits` allows file edits, `bypass` allows all, `deny` refuses all. */
  mode: z.enum(['ask', 'acceptEdits', 'bypass', 'deny']).optional(),
  /**
   * Rules allowed without asking, unless a deny or ask rule of any file matches too. A bash
   * rule must cover every simple command of a command line; see matchCommandRules.
   */
  allow: z.array(ruleString).optional(),
  /** Rules that always ask, even in `acceptEdits` mode, whatever allow rules say. */
  ask: z.array(ruleString).optional(),
  /** Rules refused in every mode: deny beats ask beats allow across all files and remembered answers. */
  deny: z.array(ruleString).optional(),
});

/** An MCP server agentd starts as a child process (stdio transport). */
export const StdioMcpServerSchema = z.strictObject({
  /**
   * Executable to run: a name (`npx`, `uvx`) is looked up on PATH, as a shell would,
   * because that is what users write; a relative path with a slash is taken from `cwd`.
   * (An ACP client's servers must give an absolute path instead.)
   */
  command: nonEmpty,
  args: z.array(z.string()).optional(),
  /** Extra environment variables for the server. */
  env: stringMap.optional(),
  /** Working directory; the session's cwd when unset. */
  cwd: nonEmpty.optional(),
  /**
   * Believe the server's tool annotations: a tool it marks `readOnlyHint` then runs like a
   * read (no question in the ask and acceptEdits modes). Default false: annotations are
   * the server's own claims and never loosen permissions. Never honoured in deny mode.
   */
  trusted: z.boolean().optional(),
  /**
   * How long the server may take to start (connect and list its tools), in ms; default
   * 10 000. A prompt waits for a server still starting up to this long, then goes on without it.
   */
  startupTimeoutMs: z.int().min(100).max(600_000).optional(),
});

/** A remote MCP server (Streamable HTTP transport). */
export const HttpMcpServerSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL like "https://mcp.example.com/mcp"' }),
  /** Extra HTTP headers, e.g. Authorization. */
  headers: stringMap.optional(),
  /**
   * Believe the server's tool annotations: a tool it marks `readOnlyHint` then runs like a
   * read (no question in the ask and acceptEdits modes). Default false: annotations are
   * the server's own claims and never loosen permissions. Never honoured in deny mode.
   */
  trusted: z.boolean().optional(),
  /**
   * How long the server may take to start (connect and list its tools), in ms; default
   * 10 000. A prompt waits for a server still starting up to this long, then goes on without it.
   */
  startupTimeoutMs: z.int().min(100).max(600_000).optional(),
});

export const McpServerConfigSchema = z.union([StdioMcpServerSchema, HttpMcpServerSchema], {
  error:
    'expected a local server {"command", "args"?, "env"?, "cwd"?, "trusted"?, "startupTimeoutMs"?} or a remote one {"url", "headers"?, "trusted"?, "startupTimeoutMs"?}: give "command" or "url", not both',
});
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** A prompt run on a cron schedule by the scheduler (see protocol/schedules.ts for each field). */
export const ScheduleConfigSchema = z.strictObject({
  /** Unique name: the schedule's id over the protocol, and the run sessions' title. */
  name: nonEmpty,
  /** Cron expression (5 or 6 fields, or a nickname like `@daily`); an error names the bad field. */
  cron: nonEmpty.superRefine((expression, ctx) => {
    const problem = describeCronProblem(expression);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** IANA time zone the cron is read in; the daemon's own when unset. */
  timezone: nonEmpty
    .superRefine((timezone, ctx) => {
      const problem = describeTimezoneProblem(timezone);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** The prompt sent to a new session each time. */
  prompt: nonEmpty,
  /** Working directory of that session: an absolute path (checked to exist when it runs). */
  cwd: nonEmpty.refine((dir) => path.isAbsolute(dir), { error: 'expected an absolute path, like "/home/you/project"' }),
  /** Agent (mode) of the run session; the project's default when unset. */
  agent: nonEmpty.optional(),
  /** `provider/model`; the top-level `model` when unset. */
  model: ModelReferenceSchema.optional(),
  /** Abort a run after this many milliseconds (default 180000). */
  timeoutMs: z.int().positive().optional(),
  /** Stop a run's turn once it would spend more than this many USD. */
  budgetUsd: z.number().positive().optional(),
  /** Runs are headless: what would ask is refused in `ask` (the default) and `deny`. */
  permissionMode: z.enum(['ask', 'acceptEdits', 'bypass', 'deny']).optional(),
  /** A run due while the last still runs: `skip` (default) or `queue` (at most one waits). */
  overlap: z.enum(['skip', 'queue']).optional(),
  /** Run once at start-up when a scheduled time passed while the daemon was down (default false). */
  runMissed: z.boolean().optional(),
  /** false keeps the schedule but never runs it by itself (default true). */
  enabled: z.boolean().optional(),
});
export type ScheduleConfig = z.infer<typeof ScheduleConfigSchema>;

/** A command run before or after a tool call; it receives the call as JSON on stdin. */
export const HookConfigSchema = z.strictObject({
  /** Shell command line. */
  command: nonEmpty,
  /** Tool names it applies to; every tool when unset. */
  tools: z.array(nonEmpty).optional(),
  /** Kill the hook after this long. */
  timeoutMs: z.int().positive().optional(),
});

/** A PostgreSQL connection URL, as node-postgres reads it. */
export const PostgresUrlSchema = z.string().regex(/^postgres(?:ql)?:\/\/\S+$/, {
  error: 'expected a PostgreSQL URL such as "postgres://agentd:PASSWORD@db.example.com:5432/agentd"',
});

export const StoreConfigSchema = z.discriminatedUnion(
  'type',
  [
    /** The SQLite file in the data directory. */
    z.strictObject({ type: z.literal('sqlite') }),
    /** A PostgreSQL database, migrated by whichever daemon opens it first. */
    z.strictObject({ type: z.literal('postgres'), url: PostgresUrlSchema }),
  ],
  { error: 'expected {"type": "sqlite"} or {"type": "postgres", "url": "postgres://…"}' },
);
export type StoreConfig = z.infer<typeof StoreConfigSchema>;

export const AgentdConfigSchema = z.strictObject({
  /** The JSON Schema this file follows (config.schema.json), for editors; agentd itself ignores it. */
  $schema: z.string().optional(),
  /** Default model as `provider/model`, e.g. `anthropic/claude-sonnet-4-5`. */
  model: ModelReferenceSchema.optional(),
  /** Model used when the default one keeps failing (overloaded, down). */
  fallbackModel: ModelReferenceSchema.optional(),
  /** Provider settings keyed by provider id (built-in like `openai`, or your own). */
  providers: z.record(ProviderIdSchema, ProviderConfigSchema).optional(),
  /** Named agents (modes) keyed by name, added to or overriding the built-in ones. */
  agents: z.record(nonEmpty, AgentConfigSchema).optional(),
  permissions: PermissionsConfigSchema.optional(),
  /** Stop a session's turn once its total cost would exceed this many USD. */
  budgetUsd: z.number().positive().optional(),
  /** Most model requests in one turn. */
  maxTurns: z.int().min(1).optional(),
  /** How tool calls run. */
  tools: z
    .strictObject({
      /** Calls of one model message run at once, at most (default 8; 1 runs every call in turn). */
      maxParallel: z.int().min(1).max(64).optional(),
      /** Time limit of one call in milliseconds (default 120 000). */
      timeoutMs: z.int().min(1000).optional(),
      /**
       * How long an MCP server may take to start, in ms, unless its own `startupTimeoutMs`
       * says (default 10 000): the only limit for servers an ACP client gives in session/new.
       */
      mcpStartupTimeoutMs: z.int().min(100).max(600_000).optional(),
      /** When set, web_fetch reaches only these hosts (and their subdomains). */
      webFetchAllowedHosts: z.array(z.string().min(1)).optional(),
    })
    .optional(),
  /**
   * Project directories whose `.agentd/config.json` may also set providers, MCP servers,
   * hooks, permission allowances and sandbox settings, and whose agent files may redefine
   * built-in and user agents (user config only). Absolute paths or `~/…`, compared as real
   * paths. Only the listed directory's own `.agentd` is trusted: a subfolder's needs its
   * own entry (a command in the project could have written it).
   */
  trustedProjects: z
    .array(
      z.string().refine((dir) => dir.startsWith('/') || dir === '~' || dir.startsWith('~/'), {
        error: 'expected an absolute path like "/home/me/code/project" (or "~/code/project"); a relative path would depend on where agentd starts',
      }),
    )
    .optional(),
  /** Sub-agents started by the `agent` tool, and the manager mode that only delegates. */
  subagents: z
    .strictObject({
      /** Sub-agents running at once per session (default 4). */
      maxConcurrent: z.int().min(1).max(16).optional(),
      /** `provider/model` for sub-agents; the session's model when unset. */
      executorModel: ModelReferenceSchema.optional(),
      /** Manager mode: the top-level agent plans and delegates only (the `manager` agent). */
      manager: z.boolean().optional(),
      /** `provider/model` of the manager agent; the session's model when unset. */
      managerModel: ModelReferenceSchema.optional(),
      /** The most all sub-agents of one parent session may spend together, USD. */
      budgetUsd: z.number().positive().optional(),
    })
    .optional(),
  /** Default reasoning effort for models that think. */
  thinking: z.enum(['off', 'minimal', 'low', 'medium', 'high']).optional(),
  /** MCP servers keyed by name; their tools appear as `<name>__<tool>`. */
  mcpServers: z.record(nonEmpty, McpServerConfigSchema).optional(),
  /**
   * Scheduled prompts the daemon runs (src/scheduler). Only the user's own config file's
   * schedules run; a project file's are ignored, as a workspace must not start runs.
   */
  schedules: z
    .array(ScheduleConfigSchema)
    .superRefine((schedules, ctx) => {
      const seen = new Set<string>();
      schedules.forEach((schedule, index) => {
        if (seen.has(schedule.name)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `schedule name "${schedule.name}" is used twice; give each schedule its own name`,
          });
        }
        seen.add(schedule.name);
      });
    })
    .optional(),
  /** JSON-RPC server limits. */
  server: z
    .strictObject({
      /** Largest message accepted, in bytes; DEFAULT_MAX_FRAME_BYTES (32 MiB) when unset. */
      maxFrameBytes: z.int().positive().optional(),
      /** How long the daemon waits for a client's answer to its own requests (tools/call, permission). */
      requestTimeoutMs: z.int().positive().optional(),
      /** TCP: a connection that has not sent initialize with the token within this many ms is closed (default 10 000). */
      authTimeoutMs: z.int().positive().optional(),
      /** TCP: connections at once that have not authenticated yet; more are refused (default 16). */
      maxUnauthenticatedConnections: z.int().positive().optional(),
      /** TCP: connections at once, authenticated or not; more are refused (default 64). */
      maxConnections: z.int().positive().optional(),
      /**
       * The web dashboard: `[HOST:]PORT` where a shared daemon (`serve --socket` or `--listen`)
       * serves the page over HTTP, and where `agentd dashboard` starts it; 127.0.0.1 when no
       * host is given. A host that is not loopback also needs `agentd serve --http-any-host`.
       */
      http: z
        .string()
        .regex(/^(?:(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?\d{1,5}$/, {
          error: 'expected [HOST:]PORT such as "7780" or "127.0.0.1:7780" (IPv6 as "[::1]:7780"); PORT 0 lets the OS pick one',
        })
        .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65535, { error: 'the port must be 0 to 65535' })
        .optional(),
      /**
       * A daemon started on demand (`agentd acp`, a client's connect: `serve --on-demand`)
       * exits after this many ms with no client connected, no running turn, no queued
       * message and no enabled schedule (default DEFAULT_IDLE_EXIT_MS, 30 minutes). A daemon
       * started by `agentd serve` without `--on-demand` never exits by itself.
       */
      idleExitMs: z.int().positive().optional(),
    })
    .optional(),
  /** The bash tool's bubblewrap sandbox. */
  sandbox: z
    .strictObject({
      /** Run commands in the sandbox (when bubblewrap is available). */
      enabled: z.boolean().optional(),
      /**
       * Allow network access inside the sandbox. This also opens the host's loopback
       * services and abstract Unix sockets (X11, some dbus and agent sockets).
       */
      network: z.boolean().optional(),
      /**
       * Environment variables passed into sandboxed commands besides the core set (PATH,
       * HOME, USER, LOGNAME, SHELL, LANG, LANGUAGE, LC_*, TERM, TZ), with the daemon's
       * values: names, or prefixes ending in `*` (`"NPM_CONFIG_*"`). A provider's API key
       * variable never passes, even when listed.
       */
      env: z
        .array(
          z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, {
            error: 'expected an environment variable name like "JAVA_HOME", or a prefix ending in * like "NPM_CONFIG_*"',
          }),
        )
        .optional(),
      /**
       * More files and folders hidden inside the sandbox, besides agentd's own directories
       * and the usual credential files: absolute paths or `~/…`.
       */
      denyRead: z
        .array(
          z.string().refine((p) => p.startsWith('/') || p === '~' || p.startsWith('~/'), {
            error: 'expected an absolute path like "/srv/secrets" or a home path like "~/.config/vendor"',
          }),
        )
        .optional(),
    })
    .optional(),
  /**
   * Where sessions, turns, messages and schedules are kept: the SQLite file in the data
   * directory (the default), or a PostgreSQL database several daemons can share.
   * `AGENTD_STORE_URL` (a postgres:// URL) overrides it.
   */
  store: StoreConfigSchema.optional(),
  /**
   * Several daemons sharing one PostgreSQL store (`store.type` "postgres"): how long a
   * daemon's hold on a running session lasts unless renewed, which folders it serves, and
   * how many turns it runs at once (the folders and the turn limit apply on SQLite too).
   */
  cluster: z
    .strictObject({
      /** A running session's lease in milliseconds, renewed while its daemon lives (default 10 000). */
      leaseMs: z.int().min(1000).max(600_000).optional(),
      /**
       * Absolute folders whose sessions this daemon serves (default, or empty: every folder).
       * A request for a session elsewhere goes to a daemon that serves it; each must exist here.
       */
      roots: z
        .array(
          z.string().superRefine((entry, ctx) => {
            const problem = rootProblem(entry);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        )
        .optional(),
      /** Turns this daemon runs at once, interactive and headless together (default 8). */
      concurrency: z.int().min(1).max(256).optional(),
    })
    .optional(),
  /** Commands run around tool calls, besides hooks registered by clients. */
  hooks: z
    .strictObject({
      /** Run before each matching tool call. */
      beforeToolCall: z.array(HookConfigSchema).optional(),
      /** Run after each matching tool call, with its result. */
      afterToolCall: z.array(HookConfigSchema).optional(),
    })
    .optional(),
});
export type AgentdConfig = z.infer<typeof AgentdConfigSchema>;
