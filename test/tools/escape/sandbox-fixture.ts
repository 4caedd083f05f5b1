import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { resolveAgentdPaths, type AgentdPaths } from '../../../src/config/agentd-paths.js';
import type { AgentdConfig } from '../../../src/config/config-schema.js';
import { createBashTool } from '../../../src/tools/builtin/bash.js';
import { buildSandboxPolicy, type SandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import type { ToolResult } from '../../../src/tools/tool.js';
import { makeContext, makeTempDir, textOf } from '../tool-test-context.js';

/** Every secret the fixture plants; none may show up in a tool's output or in a file it wrote. */
export const SECRETS = {
  configApiKey: 'sk-config-secret-1',
  token: 'token-secret-2',
  database: 'db-secret-3',
  ssh: 'ssh-secret-4',
  aws: 'aws-secret-5',
  netrc: 'netrc-secret-6',
  npmrc: 'npmrc-secret-7',
  denied: 'denied-secret-8',
  workKey: 'work-key-secret-9',
  awsEnv: 'aws-env-secret-10',
  dbUrlPassword: 'url-password-11',
  openaiEnv: 'openai-env-secret-12',
} as const;

/** A listening Unix socket that counts who connects. */
export interface CountingSocket {
  path: string;
  connections(): number;
}

/**
 * A fake user on real disk, outside /tmp (so the sandbox's private /tmp is not what hides
 * it): a home with credentials, agentd's config (with apiKey), database, token, runtime dir
 * and live sockets (the daemon's, ssh-agent's, one in /run, one abstract), the daemon's
 * environment with keys in it, and the policy the daemon would build from all that.
 */
export interface SandboxFixture {
  home: string;
  workspace: string;
  paths: AgentdPaths;
  env: NodeJS.ProcessEnv;
  policy: SandboxPolicy;
  daemonSocket: CountingSocket;
  agentSocket: CountingSocket;
  runSocket: CountingSocket;
  abstractSocket: CountingSocket;
  /** Runs bash sandboxed in the workspace with this policy (network per `allowNetwork`). */
  bash(command: string, options?: { allowNetwork?: boolean; cwd?: string }): Promise<ToolResult>;
  /** The output plus every file under the workspace changed since `since`, for secret scans. */
  evidence(result: ToolResult, since: number): string;
  cleanup(): Promise<void>;
}

export async function makeSandboxFixture(options: { workspaceIsHome?: boolean; config?: AgentdConfig } = {}): Promise<SandboxFixture> {
  const home = fs.realpathSync(fs.mkdtempSync('/var/tmp/agentd-escape-home-'));
  const outside = fs.realpathSync(fs.mkdtempSync('/var/tmp/agentd-escape-aws-'));
  const tmpWorkspace = options.workspaceIsHome ? undefined : makeTempDir('agentd-escape-ws-');
  const workspace = tmpWorkspace?.dir ?? home;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    XDG_RUNTIME_DIR: path.join(home, 'run-user'),
    SSH_AUTH_SOCK: path.join(home, '.cache', 'ssh-agent.sock'),
    WORK_KEY: SECRETS.workKey,
    AWS_SECRET_ACCESS_KEY: SECRETS.awsEnv,
    DATABASE_URL: `postgres://app:${SECRETS.dbUrlPassword}@db.internal/app`,
    OPENAI_API_KEY: SECRETS.openaiEnv,
  };
  const paths = resolveAgentdPaths(env);
  write(paths.configFile, JSON.stringify({ providers: { openai: { apiKey: SECRETS.configApiKey } } }));
  write(paths.tokenFile, `${SECRETS.token}\n`);
  fs.mkdirSync(paths.dataDir, { recursive: true });
  const db = new Database(paths.databaseFile);
  db.exec('create table t (v text)');
  db.prepare('insert into t values (?)').run(SECRETS.database);
  db.close();
  write(path.join(home, '.ssh', 'id_rsa'), SECRETS.ssh);
  write(path.join(outside, 'credentials'), SECRETS.aws);
  fs.symlinkSync(outside, path.join(home, '.aws'));
  write(path.join(home, '.netrc'), `machine example.com password ${SECRETS.netrc}\n`);
  write(path.join(home, '.npmrc'), `//registry.npmjs.org/:_authToken=${SECRETS.npmrc}\n`);
  write(path.join(home, 'private', 'notes.txt'), SECRETS.denied);
  write(path.join(home, 'public.txt'), 'public-content\n');

  const servers: net.Server[] = [];
  const listen = async (socketPath: string): Promise<CountingSocket> => {
    let count = 0;
    const server = net.createServer((socket) => {
      count += 1;
      socket.end('hello from the host\n');
    });
    if (!socketPath.startsWith('\0')) fs.mkdirSync(path.dirname(socketPath), { recursive: true });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    servers.push(server);
    return { path: socketPath, connections: () => count };
  };
  const daemonSocket = await listen(paths.socketPath);
  const agentSocket = await listen(env.SSH_AUTH_SOCK!);
  const runSocket = await listen(`/run/agentd-escape-${randomBytes(4).toString('hex')}.sock`);
  const abstractSocket = await listen(`\0agentd-escape-${randomBytes(4).toString('hex')}`);

  const config: AgentdConfig = options.config ?? {
    providers: { work: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'WORK_KEY' } },
    sandbox: { denyRead: ['~/private'] },
  };
  const { policy } = buildSandboxPolicy({ paths, config, env });
  return {
    home,
    workspace,
    paths,
    env,
    policy,
    daemonSocket,
    agentSocket,
    runSocket,
    abstractSocket,
    bash: (command, opts = {}) =>
      createBashTool({ policy, ...(opts.allowNetwork !== undefined ? { allowNetwork: opts.allowNetwork } : {}) }).execute(
        { command },
        makeContext(opts.cwd ?? workspace, { sandbox: { mode: 'bubblewrap' }, env, dataDir: paths.dataDir }),
      ),
    evidence(result, since) {
      return [textOf(result), ...changedFiles(workspace, since).map((file) => fs.readFileSync(file, 'utf8'))].join('\n');
    },
    async cleanup() {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      fs.rmSync(runSocket.path, { force: true });
      tmpWorkspace?.cleanup();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    },
  };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function changedFiles(dir: string, since: number): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return changedFiles(full, since);
    return entry.isFile() && fs.statSync(full).mtimeMs >= since ? [full] : [];
  });
}
