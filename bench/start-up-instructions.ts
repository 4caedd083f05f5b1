import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineReader } from './support/line-reader.js';
import { chatFrames, startSseServer } from './support/sse-server.js';
import { BARE_NODE_ARGS } from './support/time-to-answer.js';

/** This build's bin folder: the snapshot, its entry and the launcher beside them. */
const BIN_DIR = fileURLToPath(new URL('../bin/', import.meta.url));

/** Instructions of one phase, and the part of them V8 spent compiling functions on their first call. */
interface Phase {
  instructions: number;
  lazyCompile: number;
  checksum: number;
  deserialize: number;
}

/**
 * `agentd serve --stdio` started from a build's snapshot under valgrind's callgrind, which
 * counts instructions: a figure the machine's load does not move, unlike the wall clock.
 * Phases are cut where the process waits: spawn → `initialize` answered, then →
 * `session/new` answered, then a prompt sent at once → its model request at a loopback
 * vendor (`callgrind_control --dump` as each arrives). Each
 * phase also gives what V8's lazy compilation, the snapshot's checksum and its
 * deserialization took of it. `bins` are other builds' bin folders (before/after); the home
 * of each is kept across its runs, as an editor's is.
 */
export async function benchStartUpInstructions(runs = 2, bins: string[] = []): Promise<Record<string, Record<string, number>>> {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('start-up-instructions needs valgrind (apt-get install valgrind)');
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  // The prompt's model request is cut where it reaches this vendor.
  let requested: () => void = () => {};
  const vendor = await startSseServer(chatFrames(['hello']), { onRequest: () => requested() });
  const table: Record<string, Record<string, number>> = {};
  // A bare `node` answering one line, to the answer: the floor a start is read against.
  const bare = await bareRun();
  table['bare node'] = { initializeInstructionsM: Math.round(bare.instructions / 1e5) / 10, initializeLazyCompileM: Math.round(bare.lazyCompile / 1e5) / 10 };
  try {
    for (const bin of [BIN_DIR, ...bins].map((dir) => resolve(dir))) {
      const home = mkdtempSync(join(tmpdir(), 'agentd-bench-cg-'));
      mkdirSync(join(home, 'config'));
      writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${vendor.url}/v1` } } }));
      try {
        const run = (): Promise<Phase[]> => oneRun(bin, home, workspace, (listener) => (requested = listener));
        await run(); // the database is made once, as at an editor's first start
        const phases: Phase[][] = [];
        for (let i = 0; i < runs; i++) phases.push(await run());
        const row: Record<string, number> = {};
        for (const [index, name] of ['initialize', 'sessionNew', 'firstPrompt'].entries()) {
          for (const key of ['instructions', 'lazyCompile', 'checksum', 'deserialize'] as const) {
            row[`${name}${key[0]!.toUpperCase()}${key.slice(1)}M`] = Math.round(Math.min(...phases.map((phase) => phase[index]![key])) / 1e5) / 10;
          }
        }
        table[bin] = row;
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    }
  } finally {
    await vendor.close();
    rmSync(workspace, { recursive: true, force: true });
  }
  return table;
}

async function oneRun(bin: string, home: string, workspace: string, onModelRequest: (listener: () => void) => void): Promise<Phase[]> {
  const out = join(mkdtempSync(join(tmpdir(), 'agentd-bench-cgout-')), 'callgrind.out');
  const flags = /^v8_flags=(.*)$/m.exec(readFileSync(join(bin, 'agentd'), 'utf8'))?.[1]?.split(' ') ?? [];
  const env: NodeJS.ProcessEnv = { ...process.env, AGENTD_HOME: home };
  delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...flags, '--snapshot-blob', join(bin, 'serve-snapshot.blob'), join(bin, 'chunks', 'serve-snapshot.cjs'), 'serve', '--stdio'],
    { env, stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const send = (message: object): void => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const dump = (name: string): void => void execFileSync('callgrind_control', ['--dump', name, String(child.pid)], { stdio: 'ignore' });
  const answers = lineReader(child);
  const exited = new Promise((done) => child.once('exit', done));
  send({ id: 0, method: 'initialize', params: { protocolVersion: 1 } });
  await answers.next((line) => line.includes('"id":0'));
  dump('initialize');
  send({ id: 1, method: 'session/new', params: { cwd: workspace, mcpServers: [] } });
  const created = JSON.parse(await answers.next((line) => line.includes('"id":1'))) as { result: { sessionId: string } };
  dump('session-new');
  // The prompt sent at once, as a client with one ready does: no warm-up has run.
  const requested = new Promise<void>((resolve) => onModelRequest(resolve));
  send({ id: 2, method: 'session/prompt', params: { sessionId: created.result.sessionId, prompt: [{ type: 'text', text: 'go' }] } });
  await requested;
  dump('first-prompt');
  await answers.next((line) => line.includes('"id":2'));
  child.stdin.end();
  await exited;
  try {
    return [phaseOf(`${out}.1`), phaseOf(`${out}.2`), phaseOf(`${out}.3`)];
  } finally {
    rmSync(resolve(out, '..'), { recursive: true, force: true });
  }
}

async function bareRun(): Promise<Phase> {
  const dir = mkdtempSync(join(tmpdir(), 'agentd-bench-cgout-'));
  const out = join(dir, 'callgrind.out');
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...BARE_NODE_ARGS], { stdio: ['pipe', 'pipe', 'ignore'] });
  const answers = lineReader(child);
  const exited = new Promise((done) => child.once('exit', done));
  child.stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}\n');
  await answers.next(() => true);
  execFileSync('callgrind_control', ['--dump', 'initialize', String(child.pid)], { stdio: 'ignore' });
  await exited;
  try {
    return phaseOf(`${out}.1`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A dump's total and the inclusive instructions of three V8 functions, from callgrind_annotate. */
function phaseOf(file: string): Phase {
  const text = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const total = /^([\d,]+) \S+\s+PROGRAM TOTALS/m.exec(text)?.[1];
  const inclusive = (name: RegExp): number => {
    const line = text.split('\n').find((row) => name.test(row));
    return line ? Number(/^\s*([\d,]+)/.exec(line)![1]!.replaceAll(',', '')) : 0;
  };
  return {
    instructions: Number(total?.replaceAll(',', '') ?? NaN),
    lazyCompile: inclusive(/v8::internal::Runtime_CompileLazy\(/),
    checksum: inclusive(/v8::internal::Checksum\(/),
    deserialize: inclusive(/v8::internal::ContextDeserializer::Deserialize\(/) + inclusive(/v8::internal::StartupDeserializer::DeserializeIntoIsolate\(/),
  };
}
