import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median } from './support/daemon-client.js';
import { BARE_NODE_ARGS, timeToAnswer } from './support/time-to-answer.js';

const DIST = fileURLToPath(new URL('../', import.meta.url));

/**
 * Would a V8 startup snapshot pay for the serve shell? What the shell builds before its
 * first answer is mostly zod and the protocol and config schemas made with it. This
 * bundles exactly those (dist/protocol/index.js, dist/src/config/config-schema.js) into
 * one script that answers one line on stdin, and times three processes interleaved, each
 * from spawn to its answer: that script run normally, the same script restored from a
 * snapshot (`node --build-snapshot`, then `node --snapshot-blob`), and a bare `node`.
 */
export async function benchColdStartSnapshot(runs = 21): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'agentd-bench-snapshot-'));
  try {
    const entry = join(dir, 'entry.mjs');
    writeFileSync(
      entry,
      [
        `import * as protocol from ${JSON.stringify(join(DIST, 'protocol/index.js'))};`,
        `import * as config from ${JSON.stringify(join(DIST, 'src/config/config-schema.js'))};`,
        `import v8 from 'node:v8';`,
        `const answer = () => process.stdin.once('data', () => {`,
        `  process.stdout.write(JSON.stringify({ exports: Object.keys(protocol).length + Object.keys(config).length }) + '\\n');`,
        `  setTimeout(() => process.exit(0), 50);`,
        `});`,
        `if (v8.startupSnapshot.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(answer); else answer();`,
      ].join('\n'),
    );
    const script = join(dir, 'shell-schemas.cjs');
    // A snapshot takes one CommonJS script; import.meta.url only feeds createRequire calls
    // that load optional packages lazily, never during this run.
    await build({ entryPoints: [entry], outfile: script, bundle: true, format: 'cjs', platform: 'node', mainFields: ['module', 'main'], define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(DIST, 'src/config/config-schema.js')).href) }, logLevel: 'error' });
    const blob = join(dir, 'shell-schemas.blob');
    await run(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', script]);
    const cases: Record<string, string[]> = {
      plain: [script],
      snapshot: ['--snapshot-blob', blob],
      bare: BARE_NODE_ARGS,
    };
    const wall: Record<string, number[]> = { plain: [], snapshot: [], bare: [] };
    const cpu: Record<string, number[]> = { plain: [], snapshot: [], bare: [] };
    for (let i = 0; i < runs; i++) {
      for (const [name, args] of Object.entries(cases)) {
        const { ms, cpuMs } = await timeToAnswer(args);
        wall[name]!.push(ms);
        cpu[name]!.push(cpuMs);
      }
    }
    const result: Record<string, number> = { runs };
    for (const name of Object.keys(cases)) {
      result[`${name}Ms`] = median(wall[name]!);
      result[`${name}CpuMs`] = median(cpu[name]!);
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr}`))));
  });
}
