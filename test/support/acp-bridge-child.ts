import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { CLI, daemonEnv } from './daemon-process.js';

/** Splits tapped bytes into lines, for checking the raw wire. */
function lineTap(): { push(chunk: Uint8Array): void; lines: string[] } {
  let pending = '';
  const decoder = new TextDecoder();
  const lines: string[] = [];
  return {
    lines,
    push(chunk) {
      pending += decoder.decode(chunk, { stream: true });
      let i: number;
      while ((i = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (line.trim()) lines.push(line);
      }
    },
  };
}

export interface AcpBridgeChild {
  /** The child's stdio as an ACP SDK stream, for `connectWith`. */
  stream: ReturnType<typeof acp.ndJsonStream>;
  /** Every line the client wrote, and every line `agentd acp` wrote back. */
  sent: string[];
  received: string[];
  /** Kills the bridge and the shared daemon it started for this AGENTD_HOME. */
  stop(): Promise<void>;
}

/** How an editor's settings start the agent: a command looked up on `env.PATH`, and its args. */
export interface AcpLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * Spawns `node dist/bin/agentd.cjs acp` the way an editor does (or `launch`, an editor's
 * own settings), with both directions of the wire tapped.
 */
export function spawnAcpBridge(home: string, launch?: AcpLaunch): AcpBridgeChild {
  const child = launch
    ? spawn(launch.command, launch.args, { env: launch.env, stdio: 'pipe' })
    : spawn(process.execPath, [CLI, 'acp'], { env: daemonEnv(home), stdio: 'pipe' });
  const sent = lineTap();
  const received = lineTap();
  const toDaemon = new WritableStream<Uint8Array>({
    write(chunk) {
      sent.push(chunk);
      child.stdin.write(chunk);
    },
    close() {
      child.stdin.end();
    },
  });
  const fromDaemon = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout.on('data', (chunk: Buffer) => {
        received.push(chunk);
        controller.enqueue(new Uint8Array(chunk));
      });
      child.stdout.once('end', () => {
        try {
          controller.close();
        } catch {
          // The SDK cancelled the stream when the connection closed.
        }
      });
    },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    stream: acp.ndJsonStream(toDaemon, fromDaemon),
    sent: sent.lines,
    received: received.lines,
    async stop() {
      child.kill('SIGKILL');
      await exited;
      // The daemon the bridge started listens on this home's socket; only it has that path in its command line.
      const socket = join(home, 'run', 'agentd.sock');
      for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
        try {
          if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(socket)) process.kill(Number(entry), 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
    },
  };
}
