import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentdOnPath } from '../support/agentd-on-path.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const sdk = fileURLToPath(new URL('../../dist/clients/typescript/src/index.js', import.meta.url));

/** Runs a README's TypeScript example as a script of its own; null code means it did not exit within the time. */
function runScript(file: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the TypeScript examples of the READMEs, run as printed', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let bin: ReturnType<typeof agentdOnPath>;
  let work: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    bin = agentdOnPath();
    env = { ...daemonEnv(home.home), PATH: bin.path(process.env) };
    // `@agentd/client` resolves to this checkout's build, as an installed package would.
    work = mkdtempSync(join(tmpdir(), 'agentd-example-'));
    const installed = join(work, 'node_modules', '@agentd', 'client');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: '@agentd/client', type: 'module', exports: './index.js' }));
    writeFileSync(join(installed, 'index.js'), `export * from ${JSON.stringify(sdk)};\n`);
  });

  afterEach(async () => {
    await replay.close();
    home.cleanup();
    bin.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  /** The example compiled as tsc would (types erased, nothing else changed), as an ES module. */
  const script = (code: string, name: string): string => {
    const file = join(work, name);
    writeFileSync(file, ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    return file;
  };

  const examples = [
    { readme: 'README.md', heading: '### TypeScript', answer: 'end_turn The build fails on a typo.\n' },
    { readme: 'clients/typescript/README.md', heading: '# @agentd/client', answer: 'The build fails on a typo.end_turn\n' },
  ];

  for (const { readme, heading, answer } of examples) {
    it(`${readme}: prints the answer and exits by itself`, { timeout: 30_000 }, async () => {
      const [code] = readmeCodeBlocks(readme, heading, 'ts');
      replay.enqueue({ body: chatCompletionSse(['The build fails ', 'on a typo.']) });
      const result = await runScript(script(code!, 'example.mjs'), env, work);
      expect(result).toEqual({ code: 0, stdout: answer, stderr: '' });
    });
  }

  it('a script that never calls close() still exits once its requests are answered', { timeout: 30_000 }, async () => {
    const [code] = readmeCodeBlocks('README.md', '### TypeScript', 'ts');
    const withoutClose = code!.split('\n').filter((line) => !line.startsWith('agentd.close()')).join('\n');
    expect(withoutClose).not.toContain('close()');
    replay.enqueue({ body: chatCompletionSse(['The build fails ', 'on a typo.']) });
    const result = await runScript(script(withoutClose, 'no-close.mjs'), env, work);
    expect(result).toEqual({ code: 0, stdout: 'end_turn The build fails on a typo.\n', stderr: '' });
  });
});
