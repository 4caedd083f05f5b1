import type { ConfigChange, DaemonEvent, McpServerHealth, ProviderIncident } from '../../protocol/index.js';
import type { SessionEvent } from '../session/session-event.js';

const RECENT_INCIDENTS = 100;
const RECENT_CONFIG_CHANGES = 50;

/**
 * What `daemon/health` reports from the daemon's history, fed where the daemon already
 * announces it: provider incidents from the sessions' event streams (retry, fallback,
 * breaker), MCP server states and configuration edits from the daemon events. Bounded:
 * the newest 100 incidents and 50 configuration edits, and one entry per MCP server that
 * is not stopped (a session's servers stop with it, so a daemon that serves sessions for
 * days does not keep every one it ever started).
 */
export class DaemonHealthLog {
  private readonly incidents: ProviderIncident[] = [];
  private readonly configChanges: ConfigChange[] = [];
  private readonly servers = new Map<string, McpServerHealth>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** A session event: retries, fallbacks and breaker changes are kept; the rest is not a health matter. */
  sessionEvent(sessionId: string, event: SessionEvent): void {
    // Every streamed delta passes here: the clock is read only for the few events kept.
    if (event.type !== 'retry' && event.type !== 'fallback' && event.type !== 'breaker') return;
    const at = this.now().toISOString();
    if (event.type === 'retry') {
      const { error } = event;
      this.push(this.incidents, RECENT_INCIDENTS, {
        at,
        kind: 'retry',
        provider: error.provider,
        ...(error.model !== undefined ? { model: error.model } : {}),
        sessionId,
        detail: `attempt ${event.attempt} in ${event.delayMs} ms: ${error.message}`,
      });
    } else if (event.type === 'fallback') {
      this.push(this.incidents, RECENT_INCIDENTS, {
        at,
        kind: 'fallback',
        provider: event.error.provider,
        model: event.from,
        sessionId,
        detail: `${event.to} took over from ${event.from}: ${event.error.message}`,
      });
    } else if (event.type === 'breaker' && event.state !== 'half_open') {
      const opened = event.state === 'open';
      this.push(this.incidents, RECENT_INCIDENTS, {
        at,
        kind: opened ? 'breaker_opened' : 'breaker_closed',
        provider: event.provider,
        sessionId,
        detail: opened ? `requests to ${event.provider} fail fast until its cool-down passes` : `${event.provider} answers again`,
      });
    }
  }

  /** A daemon event: MCP server states and configuration edits are kept. */
  daemonEvent(event: DaemonEvent): void {
    const at = this.now().toISOString();
    if (event.type === 'mcp_server') {
      const key = `${event.sessionId ?? ''}\u0000${event.name}`;
      // Stopped for good: its session closed, or it left the config.
      if (event.state === 'stopped') {
        this.servers.delete(key);
        return;
      }
      const previous = this.servers.get(key);
      this.servers.set(key, {
        name: event.name,
        ...(event.sessionId !== undefined ? { sessionId: event.sessionId } : {}),
        state: event.state,
        tools: event.tools,
        // A server running again keeps its last failure on record until it fails anew.
        lastError: event.error ?? previous?.lastError ?? null,
      });
    } else if (event.type === 'config_reloaded') {
      this.push(this.configChanges, RECENT_CONFIG_CHANGES, { at, file: event.file, outcome: 'reloaded' });
    } else if (event.type === 'config_rejected') {
      this.push(this.configChanges, RECENT_CONFIG_CHANGES, {
        at,
        file: event.file,
        outcome: 'rejected',
        ...(event.path !== undefined ? { path: event.path } : {}),
        problem: event.problem,
      });
    }
  }

  /** Provider incidents, newest first. */
  recentIncidents(): ProviderIncident[] {
    return [...this.incidents].reverse();
  }

  /** Configuration edits, newest first. */
  recentConfigChanges(): ConfigChange[] {
    return [...this.configChanges].reverse();
  }

  /** Every MCP server reported, by name (a config server before a session's of the same name). */
  mcpServers(): McpServerHealth[] {
    return [...this.servers.values()].sort((a, b) => a.name.localeCompare(b.name) || (a.sessionId ?? '').localeCompare(b.sessionId ?? ''));
  }

  private push<T>(log: T[], limit: number, entry: T): void {
    log.push(entry);
    if (log.length > limit) log.splice(0, log.length - limit);
  }
}
