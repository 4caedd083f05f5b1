import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { RequiredProgram } from './required-program.js';

/**
 * A real PostgreSQL for the store tests, from Debian's binaries: one server per test worker
 * (started on first use, stopped when the worker exits), listening only on a Unix socket in
 * its own temporary folder, and a fresh database per test so tests never see each other.
 * The benchmarks start their own, durable one (startPostgresServer).
 */

const USER = 'agentd_test';

/** The newest installed PostgreSQL's bin folder (Debian keeps each major under /usr/lib/postgresql/N). */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return path.join(root, newest, 'bin');
}

/** Debian's PostgreSQL server binaries (initdb is not on PATH there, so its folder is probed). */
export const POSTGRES: RequiredProgram = {
  command: path.join(postgresBinDir(), 'initdb'),
  debianPackage: 'postgresql',
  neededBy: 'the PostgreSQL store tests',
};

export interface RunningServer {
  dir: string;
  socketDir: string;
  dataDir: string;
  /** The server's own settings, to start it again with them after stopPostgresServer. */
  settings?: string;
}

let server: Promise<RunningServer> | undefined;
let databases = 0;

/** initdb and postgres refuse to run as root: as root they run as `nobody`, owning the folder. */
function asServerUser(command: string, args: string[]): { command: string; args: string[] } {
  if (process.getuid?.() !== 0) return { command, args };
  return { command: 'runuser', args: ['-u', 'nobody', '--', command, ...args] };
}

function run(command: string, args: string[]): void {
  const wrapped = asServerUser(command, args);
  const result = spawnSync(wrapped.command, wrapped.args, { encoding: 'utf8', cwd: '/' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
  }
}

/**
 * Starts a server in a new temporary folder, stopped when this process exits. `durable`
 * keeps PostgreSQL's own commit settings (fsync, synchronous commit), for measuring what a
 * commit costs; the tests turn them off, since they never survive a crash of the machine.
 */
export function startPostgresServer(options: { durable?: boolean } = {}): RunningServer {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-pg-'));
  const dataDir = path.join(dir, 'data');
  if (process.getuid?.() === 0) {
    const nobody = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
    const uid = Number(nobody.stdout.trim());
    fs.chownSync(dir, uid, uid);
  }
  run(path.join(bin, 'initdb'), ['-D', dataDir, '--auth=trust', '-U', USER, '--no-sync', '-E', 'UTF8', '--locale=C']);
  // Stopped synchronously when the worker exits; the folder goes with it. A worker the test
  // runner kills never sees 'exit', so a detached watcher stops the server once it is gone.
  process.once('exit', () => stop(bin, dir, dataDir));
  watchWorker(bin, dir, dataDir);
  const fast = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const settings = `-c listen_addresses='' -c unix_socket_directories=${dir}${fast}`;
  run(path.join(bin, 'pg_ctl'), ['start', '-w', '-s', '-D', dataDir, '-l', path.join(dir, 'server.log'), '-o', settings]);
  return { dir, socketDir: dir, dataDir, settings };
}

function stop(bin: string, dir: string, dataDir: string): void {
  const wrapped = asServerUser(path.join(bin, 'pg_ctl'), ['stop', '-s', '-D', dataDir, '-m', 'immediate']);
  spawnSync(wrapped.command, wrapped.args, { stdio: 'ignore', cwd: '/' });
  fs.rmSync(dir, { recursive: true, force: true });
}

function watchWorker(bin: string, dir: string, dataDir: string): void {
  const pgCtl = asServerUser(path.join(bin, 'pg_ctl'), ['stop', '-s', '-D', dataDir, '-m', 'immediate']);
  const quoted = [pgCtl.command, ...pgCtl.args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${quoted} >/dev/null 2>&1; rm -rf '${dir}'`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', cwd: '/' }).unref();
}

/** The worker's server, started on first call. */
export function postgresServer(): Promise<RunningServer> {
  server ??= Promise.resolve().then(() => startPostgresServer());
  return server;
}

/** A connection URL (Unix socket, no password) to the database `name` of the worker's server. */
export function postgresUrl(socketDir: string, name: string): string {
  return `postgres://${USER}@localhost/${name}?host=${encodeURIComponent(socketDir)}`;
}

/** Creates an empty database on the worker's server and returns its URL. */
export async function createTestDatabase(): Promise<string> {
  return createDatabase(await postgresServer(), `test_${process.pid}_${++databases}`);
}

/** Creates the empty database `name` (letters, digits, underscores) on a server and returns its URL. */
export async function createDatabase(running: RunningServer, name: string): Promise<string> {
  // A connection per call, closed at once: nothing left open keeps the process alive.
  const admin = new pg.Client({ host: running.socketDir, user: USER, database: 'postgres' });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  } finally {
    await admin.end();
  }
  return postgresUrl(running.socketDir, name);
}

/** Stops a server started by startPostgresServer at once, dropping its connections (the database "goes away"). */
export function stopPostgresServer(running: RunningServer): void {
  run(path.join(postgresBinDir(), 'pg_ctl'), ['stop', '-s', '-w', '-D', running.dataDir, '-m', 'immediate']);
}

/** Starts a stopped server again, on the same socket, with the same settings and data. */
export function restartPostgresServer(running: RunningServer): void {
  run(path.join(postgresBinDir(), 'pg_ctl'), ['start', '-w', '-s', '-D', running.dataDir, '-l', path.join(running.dir, 'server.log'), '-o', running.settings ?? '']);
}
