import type { Ajv, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ToolSpec } from '../providers/request.js';
import { formatAjvErrors } from './format-ajv-errors.js';
import { loadAjv } from './load-ajv.js';
import type { Access, Tool } from './tool.js';
import { toolJsonSchema } from './tool-json-schema.js';

export { createBuiltinTools, type BuiltinToolOptions } from './create-builtin-tools.js';

/** Where a tool comes from. */
export type ToolOrigin = 'builtin' | 'client' | 'mcp';

/** A tool as the registry holds it. */
export interface RegisteredTool {
  tool: Tool;
  origin: ToolOrigin;
  /** Set for tools visible to one session only (e.g. registered by that session's client). */
  sessionId?: string;
}

/** Which tools to offer the model. */
export interface ToolFilter {
  /** Include this session's own tools besides the global ones. */
  sessionId?: string;
  /** Only these names (an agent's tool list). */
  names?: string[];
  /** Never these names. */
  exclude?: string[];
  /** Only tools with these access kinds (e.g. read and search for a read-only agent). */
  access?: Access[];
}

/** Outcome of checking a call's arguments against the tool's schema. */
export type ArgsValidation = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** The names vendors accept for tools (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * All tools the loop can dispatch: built-in, client-registered and MCP, global or scoped
 * to one session. Names are unique across what any one session can see.
 */
export class ToolRegistry {
  private readonly global = new Map<string, RegisteredTool>();
  private readonly scoped = new Map<string, Map<string, RegisteredTool>>();
  private readonly validators = new WeakMap<Tool, ValidateFunction>();
  private ajv07: Ajv | undefined;
  private ajv2020: Ajv2020 | undefined;

  /** Adds a tool; throws when its name is invalid, already taken where it would be visible, or its schema is invalid. */
  register(tool: Tool, options: { origin: ToolOrigin; sessionId?: string }): void {
    const entry: RegisteredTool = { tool, origin: options.origin, sessionId: options.sessionId };
    if (!TOOL_NAME.test(tool.name)) {
      throw new Error(`Invalid tool name "${tool.name}": use 1-64 letters, digits, "_" or "-" (what model vendors accept).`);
    }
    const clash = this.findClash(tool.name, options.sessionId);
    if (clash) {
      const where = clash.sessionId ? ` for session ${clash.sessionId}` : '';
      throw new Error(
        `A tool named "${tool.name}" is already registered${where} (origin ${clash.origin}); choose another name or unregister it first.`,
      );
    }
    // A schema that arrived as JSON (client, MCP) is compiled now, so a broken one is refused at
    // registration, not mid-turn; built-ins' schemas come from zod and compile on first use,
    // which keeps ajv's compilation off the daemon's start-up path.
    if (tool.jsonSchema) this.validatorFor(tool);
    if (options.sessionId === undefined) this.global.set(tool.name, entry);
    else {
      const tools = this.scoped.get(options.sessionId) ?? new Map<string, RegisteredTool>();
      tools.set(tool.name, entry);
      this.scoped.set(options.sessionId, tools);
    }
  }

  /** Removes a tool (a session's own when `sessionId` is given); false when it was not there. */
  unregister(name: string, sessionId?: string): boolean {
    if (sessionId === undefined) return this.global.delete(name);
    const tools = this.scoped.get(sessionId);
    const removed = tools?.delete(name) ?? false;
    if (tools?.size === 0) this.scoped.delete(sessionId);
    return removed;
  }

  /** Removes every tool scoped to a session (when it closes). */
  unregisterSession(sessionId: string): void {
    this.scoped.delete(sessionId);
  }

  /** The tool a session sees under `name`. */
  get(name: string, sessionId?: string): Tool | undefined {
    return this.entry(name, sessionId)?.tool;
  }

  /** The registration a session sees under `name`. */
  entry(name: string, sessionId?: string): RegisteredTool | undefined {
    return (sessionId === undefined ? undefined : this.scoped.get(sessionId)?.get(name)) ?? this.global.get(name);
  }

  /** Global tools, then the session's own, in registration order. */
  list(sessionId?: string): RegisteredTool[] {
    const own = sessionId === undefined ? [] : [...(this.scoped.get(sessionId)?.values() ?? [])];
    return [...this.global.values(), ...own];
  }

  /** Tool specs (name, description, JSON Schema) for a model request. */
  specs(filter: ToolFilter = {}): ToolSpec[] {
    return this.list(filter.sessionId)
      .filter(({ tool }) => !filter.names || filter.names.includes(tool.name))
      .filter(({ tool }) => !filter.exclude?.includes(tool.name))
      .filter(({ tool }) => !filter.access || filter.access.includes(tool.access))
      .map(({ tool }) => ({ name: tool.name, description: tool.description, inputSchema: toolJsonSchema(tool) }));
  }

  /**
   * Checks a call's arguments against the tool's JSON Schema with ajv (compiled once per
   * tool). Defaults from the schema are filled into the returned copy.
   */
  validateArgs(name: string, args: unknown, sessionId?: string): ArgsValidation {
    const tool = this.get(name, sessionId);
    if (!tool) {
      const known = this.list(sessionId).map((t) => t.tool.name).join(', ');
      return { ok: false, error: `Unknown tool "${name}". Available tools: ${known || 'none'}.` };
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { ok: false, error: `Invalid arguments for ${name}: expected a JSON object, got ${Array.isArray(args) ? 'an array' : typeof args}.` };
    }
    const copy = structuredClone(args) as Record<string, unknown>;
    const validate = this.validatorFor(tool);
    if (validate(copy)) return { ok: true, args: copy };
    return { ok: false, error: `Invalid arguments for ${name}: ${formatAjvErrors(validate.errors)}` };
  }

  private validatorFor(tool: Tool): ValidateFunction {
    const known = this.validators.get(tool);
    if (known) return known;
    const dialect = typeof tool.jsonSchema?.$schema === 'string' ? tool.jsonSchema.$schema : '';
    // Client and MCP schemas may use formats and keywords ajv does not know: ignore them, do not fail.
    const options = { allErrors: true, strict: false, validateFormats: false, useDefaults: true, logger: false } as const;
    const { Ajv: Draft07, Ajv2020: Draft2020 } = loadAjv();
    const ajv = /2019-09|2020-12/.test(dialect) ? (this.ajv2020 ??= new Draft2020(options)) : (this.ajv07 ??= new Draft07(options));
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(toolJsonSchema(tool));
    } catch (error) {
      throw new Error(`The JSON Schema of tool "${tool.name}" is invalid: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.validators.set(tool, validate);
    return validate;
  }

  private findClash(name: string, sessionId: string | undefined): RegisteredTool | undefined {
    const globalTool = this.global.get(name);
    if (globalTool) return globalTool;
    if (sessionId !== undefined) return this.scoped.get(sessionId)?.get(name);
    for (const tools of this.scoped.values()) {
      const found = tools.get(name);
      if (found) return found;
    }
    return undefined;
  }
}
