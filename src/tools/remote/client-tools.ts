import type { ToolDefinition } from '../../../protocol/index.js';
import type { Tool } from '../tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import { checkJsonSchema } from './check-json-schema.js';
import { createRemoteTool } from './create-remote-tool.js';
import type { RemotePeer } from './remote-peer.js';

/** A `tools/register` or `tools/unregister` request that cannot be honoured; each issue names the field. */
export class ClientToolError extends Error {
  constructor(readonly issues: string[]) {
    super(issues.join('; '));
    this.name = 'ClientToolError';
  }
}

interface Registration {
  name: string;
  sessionId: string | undefined;
  tool: Tool;
}

/**
 * The tools clients registered, by the connection that registered them. A client may
 * replace its own tools (same name, same scope) but never take a name another client,
 * an MCP server or a built-in already uses. When a connection closes, its tools go.
 */
export class ClientTools {
  private readonly byPeer = new Map<RemotePeer, Map<string, Registration>>();
  private readonly owners = new WeakMap<Tool, RemotePeer>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: { defaultTimeoutMs?: number } = {},
  ) {}

  /**
   * Registers `definitions` for `peer`, all or none. Throws ClientToolError naming the
   * tool and the field for an invalid schema, a duplicate or a clash.
   */
  register(peer: RemotePeer, definitions: ToolDefinition[]): string[] {
    const own = this.byPeer.get(peer) ?? new Map<string, Registration>();
    const issues = this.check(peer, own, definitions);
    if (issues.length > 0) throw new ClientToolError(issues);

    const replaced: Registration[] = [];
    const added: Registration[] = [];
    try {
      definitions.forEach((definition, index) => {
        const key = keyOf(definition.name, definition.sessionId);
        const previous = own.get(key);
        if (previous) {
          this.remove(previous);
          replaced.push(previous);
        }
        const tool = createRemoteTool(definition, peer, this.options);
        try {
          this.registry.register(tool, { origin: 'client', ...(definition.sessionId ? { sessionId: definition.sessionId } : {}) });
        } catch (error) {
          throw new ClientToolError([`tools[${index}] ("${definition.name}"): ${(error as Error).message}`]);
        }
        added.push({ name: definition.name, sessionId: definition.sessionId, tool });
      });
    } catch (error) {
      // Leave the registry as it was: drop what this call added, put back what it replaced.
      for (const registration of added) this.remove(registration);
      for (const registration of replaced) this.registry.register(registration.tool, { origin: 'client', ...(registration.sessionId ? { sessionId: registration.sessionId } : {}) });
      throw error;
    }
    for (const registration of added) {
      own.set(keyOf(registration.name, registration.sessionId), registration);
      this.owners.set(registration.tool, peer);
    }
    if (!this.byPeer.has(peer)) {
      this.byPeer.set(peer, own);
      peer.onClose(() => this.removePeer(peer));
    }
    return added.map((r) => r.name);
  }

  /** Removes the named tools `peer` registered (in any scope); returns the names removed. */
  unregister(peer: RemotePeer, names: string[]): string[] {
    const own = this.byPeer.get(peer);
    if (!own) return [];
    const removed = new Set<string>();
    for (const [key, registration] of own) {
      if (!names.includes(registration.name)) continue;
      this.remove(registration);
      own.delete(key);
      removed.add(registration.name);
    }
    return [...removed];
  }

  /** Removes every tool of a connection (it closed). */
  removePeer(peer: RemotePeer): void {
    for (const registration of this.byPeer.get(peer)?.values() ?? []) this.remove(registration);
    this.byPeer.delete(peer);
  }

  /** The connection a client tool calls, or undefined for tools of other origins. */
  ownerOf(tool: Tool): RemotePeer | undefined {
    return this.owners.get(tool);
  }

  private check(peer: RemotePeer, own: Map<string, Registration>, definitions: ToolDefinition[]): string[] {
    const issues: string[] = [];
    const seen = new Set<string>();
    definitions.forEach((definition, index) => {
      const at = `tools[${index}] ("${definition.name}")`;
      const key = keyOf(definition.name, definition.sessionId);
      if (seen.has(key)) issues.push(`${at}.name: "${definition.name}" appears twice in this request; register each name once`);
      seen.add(key);
      for (const issue of checkJsonSchema(definition.inputSchema)) issues.push(`${at}.inputSchema.${issue}`);
      const existing = this.registry.entry(definition.name, definition.sessionId);
      if (!existing || own.get(key)?.tool === existing.tool) return;
      const owner = this.owners.get(existing.tool);
      const holder =
        existing.origin === 'builtin'
          ? 'a built-in tool'
          : existing.origin === 'mcp'
            ? 'a tool of an MCP server'
            : owner === peer
              ? `your own tool in another scope (${existing.sessionId ? `session ${existing.sessionId}` : 'daemon-wide'})`
              : `a tool of another client (${owner?.label ?? 'unknown'})`;
      issues.push(`${at}.name: "${definition.name}" is already taken by ${holder}; choose another name`);
    });
    return issues;
  }

  private remove(registration: Registration): void {
    // Only if the registry still holds this very tool (a session's tools may have gone with it).
    if (this.registry.entry(registration.name, registration.sessionId)?.tool === registration.tool) {
      this.registry.unregister(registration.name, registration.sessionId);
    }
  }
}

function keyOf(name: string, sessionId: string | undefined): string {
  return `${sessionId ?? ''}\u0000${name}`;
}
