// Which functions of the serve bundle a start runs after it is restored from the snapshot:
// the bundle (dist/bin/chunks/serve-snapshot.cjs) run once by plain node as an editor drives
// it (`initialize`, `session/new`, a prompt answered by a loopback model server), with V8's
// function log on. The functions it runs for the first time after its start are the ones a
// start from the snapshot would compile on their first call; build-serve-snapshot.mjs has
// the snapshot builder compile them ahead (bench/RESULTS.md, "Compiled ahead"). Their start
// offsets in the bundle are written to serve-snapshot.hot.json beside the blob.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs the training and writes `outdir`/serve-snapshot.hot.json: `{ bundle, builtins }`, start offsets of the bundle's functions and of Node's own. */
export async function trainServeSnapshot(root, outdir) {
  const bundle = join(outdir, 'chunks', 'serve-snapshot.cjs');
  const work = mkdtempSync(join(tmpdir(), 'agentd-snapshot-training-'));
  const vendor = await startModelServer();
  try {
    const home = join(work, 'home');
    const workspace = join(work, 'workspace');
    mkdirSync(join(home, 'config'), { recursive: true });
    mkdirSync(workspace);
    const provider = { type: 'openai-chat', baseUrl: `${vendor.url}/v1`, models: { trained: { contextWindow: 32768 } } };
    writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ model: 'local/trained', providers: { local: provider } }));
    const log = join(work, 'functions.log');
    const v8Flags = /^v8_flags=(.*)$/m.exec(readFileSync(join(outdir, 'agentd'), 'utf8'))?.[1]?.split(' ') ?? [];
    const node = [...v8Flags, '--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate', '-r', join(root, 'scripts', 'snapshot-training-main.cjs')];
    // Nothing of the builder's own environment: its AGENTD_STORE_URL would have the run write to
    // that database, its keys and folders would reach the run's providers and paths.
    const env = { PATH: process.env.PATH ?? '', HOME: home, AGENTD_HOME: home };
    await driveServe(spawn(process.execPath, [...node, bundle, 'serve', '--stdio'], { env, stdio: ['pipe', 'pipe', 'pipe'] }), workspace);
    const hot = firstRunAfterStart(readFileSync(log, 'utf8'), bundle);
    writeFileSync(join(outdir, 'serve-snapshot.hot.json'), JSON.stringify(hot));
    return hot;
  } finally {
    await vendor.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** `initialize`, `session/new`, one prompt to its answer, then stdin ends; rejects on anything else. */
function driveServe(child, workspace) {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let pending = '';
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const fail = (why) => {
      child.kill();
      reject(new Error(`the training run of serve ${why}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`));
    };
    const timer = setTimeout(() => fail('took more than 30 s'), 30_000);
    child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
    child.stdout.setEncoding('utf8').on('data', (text) => {
      pending += text;
      for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
        const answer = JSON.parse(pending.slice(0, i));
        pending = pending.slice(i + 1);
        if (answer.error) return fail(`was refused ${JSON.stringify(answer.error)}`);
        if (answer.id === 0) send({ id: 1, method: 'session/new', params: { cwd: workspace, mcpServers: [] } });
        else if (answer.id === 1) send({ id: 2, method: 'session/prompt', params: { sessionId: answer.result.sessionId, prompt: [{ type: 'text', text: 'hello' }] } });
        else if (answer.id === 2) {
          if (answer.result?.stopReason !== 'end_turn') return fail(`ended its prompt with ${JSON.stringify(answer.result)}`);
          child.stdin.end();
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else fail(`exited with ${code}`);
    });
    send({ id: 0, method: 'initialize', params: { protocolVersion: 1 } });
  });
}

/**
 * The start offsets of the functions first run after the training's start, from V8's
 * function log (`function,first-execution,<script id>,<start>,<end>,…,<name>`, a script's
 * name from its `script-details` line): the bundle's, and Node's own modules' (`node:…`,
 * one set for all: their functions are found by offset among what Node's modules export,
 * and an offset of one module that happens to start a function of another costs only that
 * function's compilation).
 */
export function firstRunAfterStart(log, bundle) {
  const scripts = new Map();
  let started = false;
  const own = new Set();
  const builtins = new Set();
  for (const line of log.split('\n')) {
    const fields = line.split(',');
    if (fields[0] === 'script-details') scripts.set(fields[1], fields[2]);
    if (fields[0] !== 'function' || fields[1] !== 'first-execution') continue;
    if (fields[7] === 'agentdTrainingMain') started = true;
    else if (started) {
      const script = scripts.get(fields[2]);
      if (script === bundle) own.add(Number(fields[3]));
      else if (script?.startsWith('node:')) builtins.add(Number(fields[3]));
    }
  }
  if (!started || own.size === 0) throw new Error('the training run logged no function of the bundle after its start');
  const sorted = (set) => [...set].sort((a, b) => a - b);
  return { bundle: sorted(own), builtins: sorted(builtins) };
}

/** A loopback chat-completions server answering every request with one short streamed reply. */
async function startModelServer() {
  const chunk = (delta, finish) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'trained', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`${chunk({ role: 'assistant', content: 'hi' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
