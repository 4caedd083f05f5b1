import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatCompletionSse } from './chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from './chat-tool-call-sse.js';
import { connectWhenListening, daemonEnv, spawnDaemon, until, type DaemonChild } from './daemon-process.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';
import type { RpcPeer } from './rpc-peer.js';
import { freePort } from './free-port.js';

/** Secrets planted in the daemon's world; none may reach a tool result or a file a command wrote. */
export const DAEMON_SECRETS = {
  workKey: 'work-key-e2e-secret-1',
  awsSecret: 'aws-env-e2e-secret-2',
  configApiKey: 'sk-config-e2e-secret-3',
} as const;

/**
 * `agentd serve --socket --listen` as a child process with `--permission-mode bypass`, its
 * AGENTD_HOME, workspace (a git repository) and a directory beside them all under /var/tmp,
 * so the sandbox's private /tmp is not what hides them. The model is scripted on a replay
 * server and reached through the provider `local`, whose key comes from `apiKeyEnv: WORK_KEY`;
 * a second provider holds `apiKey` in config.json. The daemon's environment carries WORK_KEY
 * and AWS_SECRET_ACCESS_KEY.
 */
export interface EscapeDaemon {
  root: string;
  home: string;
  workspace: string;
  /** A directory outside the workspace that only a process outside the sandbox can write. */
  outside: string;
  socketPath: string;
  tcpPort: number;
  tokenFile: string;
  configFile: string;
  databaseFile: string;
  daemon: DaemonChild;
  replay: ReplayServer;
  peer: RpcPeer;
  newSession(cwd?: string): Promise<string>;
  /**
   * One prompt in which the model runs each command with bash, one call per model turn,
   * then answers "done"; returns the tool results the daemon sent back to the model.
   * Fails when the daemon asked a permission question (bypass asks none).
   */
  runBash(sessionId: string, commands: string[], promptText?: string): Promise<string[]>;
  sessionCount(): Promise<number>;
  close(): Promise<void>;
}

let nextCall = 1;

export async function startEscapeDaemon(): Promise<EscapeDaemon> {
  const root = realpathSync(mkdtempSync('/var/tmp/agentd-e2e-escape-'));
  const [home, workspace, outside] = ['home', 'ws', 'outside'].map((name) => join(root, name)) as [string, string, string];
  for (const dir of [home, workspace, outside]) mkdirSync(dir);
  execFileSync('git', ['init', '-q', workspace]);
  const replay = await startReplayServer();
  const config = {
    model: 'local/e2e-model',
    providers: {
      local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, apiKeyEnv: 'WORK_KEY', maxRetries: 1, maxRetryDelayMs: 20 },
      vault: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: DAEMON_SECRETS.configApiKey },
    },
  };
  const configFile = join(home, 'config', 'config.json');
  mkdirSync(join(home, 'config'));
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const tcpPort = await freePort();
  const env = daemonEnv(home, { WORK_KEY: DAEMON_SECRETS.workKey, AWS_SECRET_ACCESS_KEY: DAEMON_SECRETS.awsSecret });
  const daemon = spawnDaemon(['serve', '--socket', '--listen', `127.0.0.1:${tcpPort}`, '--permission-mode', 'bypass'], env, root);
  const socketPath = join(home, 'run', 'agentd.sock');
  const tokenFile = join(home, 'state', 'token');
  await until(() => existsSync(socketPath) && existsSync(tokenFile), 15_000, `the daemon's socket and token (${daemon.stderr()})`);
  const peer = await connectWhenListening(socketPath);
  await peer.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  let asked = 0;
  peer.onRequest('session/request_permission', () => {
    asked += 1;
    return { outcome: { outcome: 'selected', optionId: 'reject_once' } };
  });

  return {
    root,
    home,
    workspace,
    outside,
    socketPath,
    tcpPort,
    tokenFile,
    configFile,
    databaseFile: join(home, 'data', 'agentd.db'),
    daemon,
    replay,
    peer,
    async newSession(cwd = workspace) {
      return (await peer.call('session/new', { cwd, mcpServers: [] })).sessionId as string;
    },
    async runBash(sessionId, commands, promptText = 'run the commands') {
      const ids = commands.map(() => `call_bash_${nextCall++}`);
      commands.forEach((command, i) => replay.enqueue({ body: chatToolCallSse([{ id: ids[i]!, name: 'bash', arguments: { command } }]) }));
      replay.enqueue({ body: chatCompletionSse(['done']) });
      const result = await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: promptText }] }, 60_000);
      if (result.stopReason !== 'end_turn') throw new Error(`the turn ended with ${result.stopReason}: ${daemon.stderr()}`);
      if (asked > 0) throw new Error(`the daemon asked ${asked} permission question(s) in bypass mode`);
      const last = replay.requests.at(-1)!.body;
      return ids.map((id) => toolResultText(last, id));
    },
    async sessionCount() {
      return ((await peer.call('session/list', {})).sessions as unknown[]).length;
    },
    async close() {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
      await replay.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

