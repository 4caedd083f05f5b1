import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import { resolveAgentdPaths, type AgentdPaths } from '../../../src/config/agentd-paths.js';
import { buildSandboxPolicy, type SandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import { makeTempDir } from '../tool-test-context.js';

/** Every secret the home holds; none may reach a tool result unless the user said yes. */
export const HOME_SECRETS = {
  ssh: 'PRIVATE-ssh-key-1',
  aws: 'PRIVATE-aws-key-2',
  apiKey: 'PRIVATE-sk-config-3',
  denied: 'PRIVATE-denied-4',
  database: 'PRIVATE-db-5',
} as const;

/** What an ordinary workspace file holds: found by the same search, and read without a question. */
export const PUBLIC_TEXT = 'PRIVATE-looking but public 0';

/**
 * A user's home folder used as the session's workspace (the usual `agentd run` in `~`):
 * `.ssh/id_rsa`, `.aws/credentials`, agentd's own config (with an apiKey) and data
 * folders where XDG puts them, a `sandbox.denyRead` folder, and one ordinary project file.
 * `policy` is what the daemon would build from that home's environment and config.
 */
export interface HomeWorkspace {
  home: string;
  env: NodeJS.ProcessEnv;
  paths: AgentdPaths;
  policy: SandboxPolicy;
  /** The config.json text as planted. */
  configText: string;
  cleanup(): void;
}

export function makeHomeWorkspace(): HomeWorkspace {
  const temp = makeTempDir('agentd-f12-home-');
  const home = temp.dir;
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const paths = resolveAgentdPaths(env);
  const configText = `${JSON.stringify({ providers: { main: { type: 'anthropic', apiKey: HOME_SECRETS.apiKey } } }, null, 2)}\n`;
  const files: Record<string, string> = {
    '.ssh/id_rsa': `-----BEGIN OPENSSH PRIVATE KEY-----\n${HOME_SECRETS.ssh}\n`,
    '.aws/credentials': `[default]\naws_secret_access_key = ${HOME_SECRETS.aws}\n`,
    'private/notes.txt': `${HOME_SECRETS.denied}\n`,
    'src/app.ts': `export const text = '${PUBLIC_TEXT}';\n`,
  };
  for (const [name, text] of Object.entries(files)) write(path.join(home, name), text);
  write(paths.configFile, configText);
  write(paths.databaseFile, HOME_SECRETS.database);
  const { policy } = buildSandboxPolicy({ paths, config: { sandbox: { denyRead: ['~/private'] } }, env });
  return { home, env, paths, policy, configText, cleanup: temp.cleanup };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** True when `text` holds any of the home's secrets. */
export function leaksSecret(text: string): boolean {
  return Object.values(HOME_SECRETS).some((secret) => text.includes(secret));
}

/**
 * A fresh home workspace for each test of the calling describe block, with HOME pointing
 * at it (`~` in a path argument is the process's home, as for the daemon); `use` receives it.
 */
export function useHomeWorkspace(use: (workspace: HomeWorkspace) => void): void {
  let current: HomeWorkspace | undefined;
  beforeEach(() => {
    current = makeHomeWorkspace();
    vi.stubEnv('HOME', current.home);
    use(current);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    current?.cleanup();
  });
}
