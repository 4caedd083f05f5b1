import { execFileSync, spawn } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { expect } from 'vitest';
import { daemonEnv } from './daemon-process.js';
import { RpcPeer } from './rpc-peer.js';

/**
 * Runs the bin's `serve --stdio` as an editor would (the `node` it finds on PATH is the one
 * running these tests), asks for `initialize` and `session/new`, and says how the process
 * started: its command line (after the launcher's exec, the same pid) and its stderr.
 */
export async function serveThrough(
  bin: string,
  home: string,
  cwd: string,
  /** A folder searched for `node` before this one's (another Node's, to see the launcher refuse the snapshot for it). */
  pathFirst?: string,
): Promise<{ commandLine: string; stderr: string; sessionId: string }> {
  const path = [pathFirst, dirname(process.execPath), process.env.PATH].filter((entry) => entry !== undefined && entry !== '').join(delimiter);
  const env = daemonEnv(home, { PATH: path });
  const child = spawn(bin, ['serve', '--stdio'], { env, stdio: 'pipe' });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr += text));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const peer = new RpcPeer(child.stdout, child.stdin);
  const init = (await peer.call('initialize', { protocolVersion: 1 })) as { protocolVersion: number };
  expect(init.protocolVersion).toBe(1);
  const { sessionId } = (await peer.call('session/new', { cwd, mcpServers: [] })) as { sessionId: string };
  const commandLine = execFileSync('ps', ['-o', 'args=', '-p', String(child.pid)], { encoding: 'utf8' }).trim();
  child.stdin.end();
  await exited;
  return { commandLine, stderr, sessionId };
}

