import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { CLI, daemonEnv, makeHome } from '../support/daemon-process.js';

/** Runs the CLI with a stdout whose reader is gone before the first write (`agentd … | true`). */
function runWithClosedStdout(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout ends a command quietly', () => {
  const home = makeHome();
  const env = daemonEnv(home.home);
  let id = '';

  beforeAll(async () => {
    const paths = resolveAgentdPaths(env);
    mkdirSync(paths.dataDir, { recursive: true });
    const store = openStore(paths.databaseFile);
    for (let i = 0; i < 50; i++) id = (await store.createSession({ id: `s${i}-${'x'.repeat(30)}`, cwd: '/tmp', title: `session ${i}` })).id;
    store.close();
  });
  afterAll(() => home.cleanup());

  for (const args of [['sessions'], ['sessions', '--json'], ['sessions', 'show', `s49-${'x'.repeat(30)}`], ['models'], ['help', 'run'], ['completion', 'bash']]) {
    it(`agentd ${args.join(' ')}`, async () => {
      expect(id).not.toBe('');
      const result = await runWithClosedStdout(args, env);
      expect(result).toEqual({ code: 0, stderr: '' });
    });
  }
});
