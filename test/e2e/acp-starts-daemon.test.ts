import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

const LOCK_MODULE = fileURLToPath(new URL('../../dist/src/store/data-dir-lock.js', import.meta.url));

/**
 * An owner as a daemon starting on demand is for a moment: it holds the data directory's
 * lock, its note names no socket yet, and it listens (echoing every byte) `delayMs` later.
 */
const SLOW_OWNER = `
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { tryLockDataDir } from ${JSON.stringify(LOCK_MODULE)};
const [dataDir, socketPath, delayMs] = process.argv.slice(1);
const attempt = tryLockDataDir(dataDir);
if (attempt.kind !== 'acquired') process.exit(3);
process.stdout.write('locked\\n');
setTimeout(() => {
  mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
  const server = createServer((socket) => socket.pipe(socket));
  server.listen(socketPath, () => attempt.lock.announce({ socketPath }));
  process.stdin.on('end', () => {
    attempt.lock.release();
    process.exit(0);
  }).resume();
}, Number(delayMs));
`;

const CONFIG = { model: 'local/m', providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } }, server: { idleExitMs: 200 } };

// `agentd acp` with no daemon starts one and learns that it listens through a pipe the
// daemon writes to (src/cli/daemon/ready-pipe.ts), instead of probing the socket.
describe('`agentd acp` starting the shared daemon', () => {
  const homes: Array<ReturnType<typeof makeHome>> = [];
  const bridges: DaemonChild[] = [];
  let workspace: string | undefined;
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) {
      bridge.child.kill('SIGKILL');
      await bridge.exited;
    }
    for (const home of homes.splice(0)) {
      // The daemon a bridge started exits 200 ms after its last client, removing its note.
      await until(() => !existsSync(join(home.home, 'data', 'agentd.owner.json')), 10_000, 'the on-demand daemon to exit');
      home.cleanup();
    }
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('two bridges started at the same moment end on one daemon, and both are served', async () => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-ws-')));
    // A few rounds, each from no daemon at all, so that the two starts overlap in more than one way.
    for (let round = 0; round < 3; round++) {
      const home = makeHome(CONFIG);
      homes.push(home);
      const env = daemonEnv(home.home);
      const [first, second] = [spawnDaemon(['acp'], env), spawnDaemon(['acp'], env)];
      bridges.push(first, second);
      const answers = await Promise.all([first.peer.call('initialize', { protocolVersion: 1 }), second.peer.call('initialize', { protocolVersion: 1 })]);
      expect(answers.map((answer) => (answer as { protocolVersion: number }).protocolVersion)).toEqual([1, 1]);
      // A session made through one bridge is listed through the other: one daemon, one store.
      const created = (await first.peer.call('session/new', { cwd: workspace, mcpServers: [] })) as { sessionId: string };
      const listed = (await second.peer.call('session/list', { cwd: workspace })) as { sessions: Array<{ sessionId: string }> };
      expect(listed.sessions.map((session) => session.sessionId)).toContain(created.sessionId);
      const log = readFileSync(join(home.home, 'state', 'logs', 'daemon.log'), 'utf8');
      expect(log.match(/agentd: serving /g), `round ${round}: ${log}`).toHaveLength(1);
      for (const bridge of [first, second]) {
        bridge.child.stdin.end();
        expect((await bridge.exited).code, `round ${round}: ${bridge.stderr()}`).toBe(0);
      }
    }
  });

  it('with an owner that holds the lock but listens a moment later (another bridge’s daemon starting), waits for its socket instead of failing', async () => {
    const home = makeHome(CONFIG);
    homes.push(home);
    const socketPath = join(home.home, 'run', 'agentd.sock');
    const owner = spawn(process.execPath, ['--input-type=module', '-e', SLOW_OWNER, join(home.home, 'data'), socketPath, '300'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const ownerExited = new Promise((resolve) => owner.once('exit', resolve));
    try {
      await new Promise<void>((resolve) => owner.stdout.once('data', () => resolve()));
      // Plain bytes, read raw: the stand-in owner echoes rather than speaks JSON-RPC.
      const bridge = spawn(process.execPath, [CLI, 'acp'], { env: daemonEnv(home.home), stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      bridge.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const bridgeExited = new Promise<number | null>((resolve) => bridge.once('exit', resolve));
      bridge.stdin.write('through the owner\n');
      const echoed = await Promise.race([
        new Promise<string>((resolve) => bridge.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')))),
        bridgeExited.then((code) => `the bridge exited with ${code}: ${stderr}`),
      ]);
      expect(echoed).toBe('through the owner\n');
      bridge.stdin.end();
      expect(await bridgeExited, stderr).toBe(0);
      // No daemon of the bridge's own was started beside the owner.
      expect(existsSync(join(home.home, 'state', 'logs', 'daemon.log'))).toBe(false);
    } finally {
      owner.stdin.end();
      await ownerExited;
    }
  });

  it('with nothing at the socket path, still refuses a socket folder others can write, before starting anything', async () => {
    const home = makeHome(CONFIG);
    homes.push(home);
    const folder = join(home.home, 'shared');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const result = await runCli(['acp', '--socket', join(folder, 'agentd.sock')], daemonEnv(home.home), { stdin: '{}\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`agentd will not connect to ${join(folder, 'agentd.sock')}: its folder ${folder} `);
    expect(existsSync(join(home.home, 'state', 'logs', 'daemon.log'))).toBe(false);
  });

  it('a daemon that stops before it listens: the bridge exits 1 with the daemon’s own words, once', async () => {
    const home = makeHome({ ...CONFIG, model: 5 });
    homes.push(home);
    const config = join(home.home, 'config', 'config.json');
    const result = await runCli(['acp'], daemonEnv(home.home));
    expect(result.code).toBe(1);
    const log = join(home.home, 'state', 'logs', 'daemon.log');
    expect(result.stderr).toBe(
      `agentd: the daemon exited with code 78 before serving ${join(home.home, 'run', 'agentd.sock')}: ${config}: model: expected a string, got 5; see ${log}\n`,
    );
  });

  it('names only what the daemon it started said, not an earlier start’s failure still in the log', async () => {
    const home = makeHome(CONFIG);
    homes.push(home);
    const env = daemonEnv(home.home);
    const missing = join(home.home, 'missing.json');
    expect((await runCli(['acp', '--config', missing], env)).stderr).toContain(`${missing}: config file not found`);
    // The same home, now with a config the daemon refuses for another reason.
    writeFileSync(join(home.home, 'config', 'config.json'), JSON.stringify({ ...CONFIG, maxTurns: 'many' }));
    const second = await runCli(['acp'], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('maxTurns');
    expect(second.stderr).not.toContain('missing.json');
  });
});
