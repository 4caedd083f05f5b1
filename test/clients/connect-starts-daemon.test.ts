import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agentd } from '../../clients/typescript/src/index.js';
import { CLI, daemonEnv, makeHome } from '../support/daemon-process.js';
import { requireProgram } from '../support/required-program.js';
import { runCli } from '../support/run-cli.js';
import { runProcess } from '../support/run-process.js';

const PYTHON_SRC = fileURLToPath(new URL('../../clients/python/src', import.meta.url));
const hasPython = requireProgram({ command: 'python3', debianPackage: 'python3', neededBy: 'the Python client tests' });

/**
 * The clients' connect starts the shared daemon when none runs, as `agentd acp` does: the
 * default command (`agentd serve --socket PATH --on-demand`, found on PATH as a user has
 * it) and so a daemon that exits by itself when idle.
 */
describe('connect with start: the shared daemon, started on demand', () => {
  let home: ReturnType<typeof makeHome>;
  let env: NodeJS.ProcessEnv;
  let socketPath: string;

  beforeEach(() => {
    home = makeHome({ model: 'local/m', providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } } });
    // `agentd` on PATH runs this checkout's CLI.
    const bin = join(home.home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'agentd'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    chmodSync(join(bin, 'agentd'), 0o755);
    env = daemonEnv(home.home, { PATH: `${bin}:${process.env.PATH ?? ''}` });
    socketPath = join(home.home, 'run', 'agentd.sock');
  });

  afterEach(async () => {
    await runCli(['stop'], env);
    home.cleanup();
  });

  const owner = (): { pid: number; idleExitMs: number | null } => JSON.parse(readFileSync(join(home.home, 'data', 'agentd.owner.json'), 'utf8'));

  it('TypeScript: Agentd.connect without start names the option; with it, starts agentd serve --on-demand', async () => {
    await expect(Agentd.connect({ socketPath })).rejects.toThrow('or pass start: true');
    const agentd = await Agentd.connect({ socketPath, start: { env } });
    try {
      expect(agentd.info.agentInfo?.name).toBe('agentd');
      expect(owner().idleExitMs).toBe(1_800_000);
      expect((await runCli(['status'], env)).stdout).toContain('started on demand');
    } finally {
      agentd.close();
    }
  });

  it.skipIf(!hasPython)('Python: Client.connect(start=True) and AsyncClient.connect(start=True) start it, or join the one running', async () => {
    const script = [
      'import asyncio, json',
      'from agentd import AsyncClient, Client',
      'try:',
      '    Client.connect()',
      'except ConnectionError as error:',
      '    refused = str(error)',
      'with Client.connect(start=True) as client:',
      '    name = client.info["agentInfo"]["name"]',
      'async def joined():',
      '    client = await AsyncClient.connect(start=True)',
      '    await client.close()',
      '    return client.info["agentInfo"]["name"]',
      'print(json.dumps({"refused": refused, "name": name, "joined": asyncio.run(joined())}))',
    ].join('\n');
    const run = await runProcess('python3', ['-c', script], { env: { ...env, PYTHONPATH: PYTHON_SRC, PYTHONDONTWRITEBYTECODE: '1' }, timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ refused: expect.stringContaining('start=True'), name: 'agentd', joined: 'agentd' });
    expect(owner().idleExitMs).toBe(1_800_000);
  });
});
