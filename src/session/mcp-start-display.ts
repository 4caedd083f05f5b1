import { randomUUID } from 'node:crypto';
import type { McpServerStatus } from '../tools/mcp/mcp-manager.js';
import { STARTUP_LIMIT_HINT } from '../tools/mcp/startup-limit-hint.js';
import { waitForMcpServers, type McpServersView, type McpWaitOutcome } from '../tools/mcp/wait-for-mcp-servers.js';
import type { SessionEvent } from './session-event.js';

type StartEvent = Extract<SessionEvent, { type: 'mcp_server_start' }>;

/**
 * What one session shows of the MCP servers it sees (the user's config servers and its
 * own), as "Start MCP server X" entries in its stream — an ACP tool call, which every
 * client renders, where `_meta`, daemon events and notices reach only some: a turn
 * waiting for a server still starting, and each failure to start, once (a server started
 * again and failing again is a new failure). The entries are never stored as messages,
 * so the model never sees them; a session/load shows the failures that stand (replay).
 */
export class McpStartDisplay {
  /** Servers (keyed like McpManager's) whose standing failure this session was shown. */
  private readonly shownFailures = new Set<string>();
  /** Entries a wait opened and nothing has closed yet, by server key. */
  private readonly open = new Map<string, string>();

  constructor(
    private readonly sessionId: string,
    private readonly view: McpServersView,
    private readonly show: (event: StartEvent) => void,
  ) {}

  /** A state change of a server this session sees: a failure not shown yet is shown. */
  observe(status: McpServerStatus): void {
    if (status.state === 'failed') return this.showFailure(status);
    // Only a new start (after the failed one stopped) or a recovery can fail anew.
    if (status.state !== 'starting') this.shownFailures.delete(keyOf(status));
  }

  /**
   * Before a turn's first model request: shows failures this session was not shown yet
   * (a config server that failed before it existed), then waits for the servers still
   * starting, each up to its startup limit, showing the wait; resolves early on `signal`.
   */
  async beforeTurn(signal: AbortSignal): Promise<void> {
    for (const status of this.view.status(this.sessionId)) {
      if (status.state === 'failed' && !this.shownFailures.has(keyOf(status))) this.showFailure(status);
    }
    await waitForMcpServers(this.view, this.sessionId, signal, {
      waiting: (status) => {
        const toolCallId = `mcp-start-${randomUUID()}`;
        this.open.set(keyOf(status), toolCallId);
        const seconds = Math.round(status.startupTimeoutMs / 100) / 10;
        this.show({ type: 'mcp_server_start', toolCallId, server: status.name, status: 'in_progress', message: `Waiting for MCP server ${status.name} to start (up to ${seconds} s) so this prompt gets its tools.`, opens: true });
      },
      settled: (status, outcome) => this.settled(status, outcome),
    });
  }

  /** The failures that stand now, each as a new failed entry, for a client loading the session; they count as shown. */
  replay(): StartEvent[] {
    const shown: StartEvent[] = [];
    for (const status of this.view.status(this.sessionId)) {
      if (status.state !== 'failed') continue;
      this.shownFailures.add(keyOf(status));
      shown.push(failedEntry(`mcp-start-${randomUUID()}`, status, true));
    }
    return shown;
  }

  private settled(status: McpServerStatus, outcome: McpWaitOutcome): void {
    const key = keyOf(status);
    const toolCallId = this.open.get(key);
    // A failure reported first has closed the entry already.
    if (toolCallId === undefined) return;
    if (outcome === 'failed') return this.showFailure(status);
    this.open.delete(key);
    const { name } = status;
    if (outcome === 'timed_out') {
      // The server fails itself at this limit: that failure is this one, not shown again.
      this.shownFailures.add(key);
      const message = `MCP server ${name} did not start within ${status.startupTimeoutMs} ms; this prompt goes on without its tools. If it needs longer, raise ${STARTUP_LIMIT_HINT}.`;
      return this.show({ type: 'mcp_server_start', toolCallId, server: name, status: 'failed', message, opens: false });
    }
    const message = outcome === 'started' ? `MCP server ${name} is running with ${status.tools.length} tool(s).` : `Stopped waiting for MCP server ${name}: the prompt was cancelled.`;
    this.show({ type: 'mcp_server_start', toolCallId, server: name, status: outcome === 'started' ? 'completed' : 'failed', message, opens: false });
  }

  private showFailure(status: McpServerStatus): void {
    const key = keyOf(status);
    if (this.shownFailures.has(key)) return;
    this.shownFailures.add(key);
    const open = this.open.get(key);
    this.open.delete(key);
    this.show(failedEntry(open ?? `mcp-start-${randomUUID()}`, status, open === undefined));
  }
}

function keyOf(status: McpServerStatus): string {
  return `${status.sessionId ?? ''}\u0000${status.name}`;
}

/** A failure with what to do about it: the tools are missing until the server is fixed. */
function failedEntry(toolCallId: string, status: McpServerStatus, opens: boolean): StartEvent {
  const where = status.sessionId === undefined ? '"mcpServers" in config.json' : 'the MCP server settings of your editor (or the project\'s .agentd/config.json)';
  const message =
    `MCP server ${status.name} failed to start${status.error ? `: ${status.error}` : ''}. ` +
    `Its tools are not available in this session. Check its command, arguments and environment in ${where}; ` +
    'it is started again when that configuration changes or the session is loaded again.';
  return { type: 'mcp_server_start', toolCallId, server: status.name, status: 'failed', message, opens };
}
