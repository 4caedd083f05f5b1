import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateDaemonWire } from './acp-wire-validator.js';
import { validateAgentdWire } from './protocol-wire-validator.js';
import { daemonEnv, makeHome } from './daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from './in-process-daemon.js';
import type { PermissionMode } from '../../src/tools/permissions/permission-modes.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';
import type { RpcPeer } from './rpc-peer.js';

/** The daemon in this process with a scripted chat-completions model, a workspace and one session. */
export interface LoopHarness {
  replay: ReplayServer;
  daemon: InProcessDaemon;
  peer: RpcPeer;
  workspace: string;
  home: string;
  sessionId: string;
  /** The body of the n-th request the model received (0-based). */
  requestBody(n: number): { messages: Array<{ role: string; content: unknown; tool_calls?: unknown; tool_call_id?: string }>; tools?: Array<{ function: { name: string } }> };
  close(): Promise<void>;
}

/**
 * Starts the daemon in process (see startInProcessDaemon) with `local/e2e-model` on the replay server (config merged over
 * that), opts in to agentd events and creates a session in a fresh workspace.
 */
export async function startLoopHarness(config: Record<string, unknown> = {}, options: { permissionMode?: PermissionMode } = {}): Promise<LoopHarness> {
  const replay = await startReplayServer();
  // `providers.local` is merged over the scripted provider; `{REPLAY}` in a baseUrl is the replay server.
  const { providers, ...rest } = JSON.parse(JSON.stringify(config).replaceAll('{REPLAY}', replay.url)) as {
    providers?: Record<string, Record<string, unknown>>;
  };
  const { local, ...others } = providers ?? {};
  const home = makeHome({
    model: 'local/e2e-model',
    providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 1, maxRetryDelayMs: 20, ...local }, ...others },
    ...rest,
  });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  const daemon = startInProcessDaemon(daemonEnv(home.home), workspace, options);
  const peer = daemon.peer;
  await peer.call('initialize', { protocolVersion: 1, clientCapabilities: {}, _meta: { agentd: { events: true } } });
  const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
  return {
    replay,
    daemon,
    peer,
    workspace,
    home: home.home,
    sessionId,
    requestBody: (n) => replay.requests[n]!.body as never,
    async close() {
      // Every message the daemon sent in the test must be valid ACP and valid agentd protocol.
      const problems = [...validateDaemonWire(peer.sentLines, peer.rawLines), ...validateAgentdWire(peer.rawLines)];
      await daemon.close();
      await replay.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
      if (problems.length > 0) throw new Error(`invalid messages on the wire:\n${problems.slice(0, 10).join('\n')}`);
    },
  };
}

/** The tool messages of a request, by tool_call_id. */
export function toolResults(body: { messages: Array<{ role: string; content: unknown; tool_call_id?: string }> }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of body.messages) if (m.role === 'tool' && m.tool_call_id) out[m.tool_call_id] = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  return out;
}
