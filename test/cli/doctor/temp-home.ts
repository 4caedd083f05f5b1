import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveAgentdPaths, type AgentdPaths } from '../../../src/config/agentd-paths.js';

/** A real temporary AGENTD_HOME (symlinks resolved) and the paths agentd derives from it. */
export interface TempHome {
  home: string;
  paths: AgentdPaths;
  env: NodeJS.ProcessEnv;
  /** Writes `<home>/config/config.json` with the given JSON and returns its path. */
  writeConfig(config: unknown, mode?: number): string;
  cleanup(): void;
}

export function makeTempHome(): TempHome {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-')));
  const env: NodeJS.ProcessEnv = { AGENTD_HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const paths = resolveAgentdPaths(env);
  return {
    home,
    paths,
    env,
    writeConfig(config, mode = 0o600) {
      fs.mkdirSync(paths.configDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(paths.configFile, JSON.stringify(config), { mode });
      fs.chmodSync(paths.configFile, mode);
      return paths.configFile;
    },
    cleanup: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}
