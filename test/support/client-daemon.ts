import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, connectWhenListening, daemonEnv, makeHome, spawnDaemon, type DaemonChild } from './daemon-process.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

/**
 * A freshly started daemon for a client's end-to-end test (Neovim, Emacs, Python, the
 * TypeScript SDK): `agentd serve --socket` in a temporary home whose only model,
 * `local/e2e-model`, is an OpenAI-compatible provider on the loopback replay server.
 * The test queues the vendor responses (chatCompletionSse, chatToolCallSse), then runs
 * the client against `socketPath`, or lets it spawn `node CLI serve --stdio` with `env`.
 */
export interface ClientDaemon {
  replay: ReplayServer;
  daemon: DaemonChild;
  /** The daemon's Unix socket (accepting connections once startClientDaemon resolves). */
  socketPath: string;
  /** AGENTD_HOME of the daemon; a client spawning its own daemon uses `env`, which points there. */
  home: string;
  /** An empty directory to open sessions in. */
  workspace: string;
  /** The environment the daemon runs with (no vendor keys from the host); give it to a client that spawns one. */
  env: NodeJS.ProcessEnv;
  /** `node` and the compiled CLI, for a client that spawns `agentd serve --stdio` itself. */
  node: string;
  cli: string;
  close(): Promise<void>;
}

export interface ClientDaemonOptions {
  /** Trust the workspace (`trustedProjects`). */
  trustWorkspace?: boolean;
  /** More arguments for `serve` after `--socket PATH` (e.g. `--http 127.0.0.1:0`). */
  serveArgs?: string[];
}

export async function startClientDaemon(config: Record<string, unknown> = {}, options: ClientDaemonOptions = {}): Promise<ClientDaemon> {
  const replay = await startReplayServer();
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  // Trust names one folder exactly (a subfolder of a trusted one is not trusted): the workspace itself.
  const trusted = options.trustWorkspace ? { trustedProjects: [workspace] } : {};
  const home = makeHome({
    model: 'local/e2e-model',
    providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } },
    ...trusted,
    ...config,
  });
  const socketPath = join(home.home, 'agentd.sock');
  const env = daemonEnv(home.home);
  const daemon = spawnDaemon(['serve', '--socket', socketPath, ...(options.serveArgs ?? [])], env, workspace);
  const probe = await connectWhenListening(socketPath);
  probe.close();
  return {
    replay,
    daemon,
    socketPath,
    home: home.home,
    workspace,
    env,
    node: process.execPath,
    cli: CLI,
    async close() {
      daemon.child.kill('SIGTERM');
      await Promise.race([daemon.exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      daemon.child.kill('SIGKILL');
      await replay.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
