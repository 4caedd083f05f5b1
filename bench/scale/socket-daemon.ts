import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createMessageConnection, NullLogger, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { cancelRequestStrategy } from '../../protocol/wire/cancel-request-strategy.js';
import { NdjsonMessageReader } from '../../protocol/wire/ndjson-message-reader.js';
import { NdjsonMessageWriter } from '../../protocol/wire/ndjson-message-writer.js';
import { CLI, DAEMON_NODE_ARGS } from '../support/daemon-client.js';

/** One client connection to the shared daemon: vscode-jsonrpc with the protocol's NDJSON reader and writer over the socket. */
export interface SocketClient {
  connection: MessageConnection;
  socket: Socket;
  /** Resolves when the socket closes (vscode-jsonrpc leaves the requests it was waiting on pending then). */
  closed: Promise<void>;
  close(): void;
}

/** `agentd serve --socket PATH` as a child, with a way to open client connections to it. */
export interface SocketDaemon {
  child: ChildProcessWithoutNullStreams;
  socketPath: string;
  stderr(): string;
  /** Connects once the daemon accepts connections (the socket file appears at bind, a moment before listen). */
  connect(): Promise<SocketClient>;
  stop(): Promise<void>;
}

/**
 * `nodeArgs` go before the CLI, after AGENTD_BENCH_NODE_ARGS; `serveArgs` after `serve --socket PATH`
 * (`--http 127.0.0.1:0` for the dashboard); `cwd` is where Node writes what a signal asks for (heap snapshots).
 */
export function spawnSocketDaemon(home: string, options: { nodeArgs?: string[]; serveArgs?: string[]; cwd?: string } = {}): SocketDaemon {
  const socketPath = join(home, 'run', 'agentd.sock');
  const child = spawn(process.execPath, [...DAEMON_NODE_ARGS, ...(options.nodeArgs ?? []), CLI, 'serve', '--socket', socketPath, ...(options.serveArgs ?? [])], {
    env: { ...process.env, AGENTD_HOME: home },
    stdio: 'pipe',
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr += text));
  // Drained so a chatty stdout can never block the daemon.
  child.stdout.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    socketPath,
    stderr: () => stderr,
    connect: () => connectWhenListening(socketPath, () => child.exitCode !== null),
    async stop() {
      // SIGTERM, not SIGKILL: a `--cpu-prof` daemon writes its profile on a clean exit.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function connectWhenListening(path: string, daemonGone: () => boolean): Promise<SocketClient> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return await connectOnce(path);
    } catch (error) {
      if (daemonGone() || Date.now() > deadline) throw new Error(`could not connect to ${path}: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

function connectOnce(path: string): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => undefined);
      const connection = createMessageConnection(new NdjsonMessageReader(socket), new NdjsonMessageWriter(socket), NullLogger, {
        cancellationStrategy: cancelRequestStrategy,
      });
      connection.onError(() => undefined);
      connection.listen();
      const closed = new Promise<void>((resolveClosed) => socket.once('close', () => resolveClosed()));
      resolve({
        connection,
        socket,
        closed,
        close() {
          connection.dispose();
          socket.destroy();
        },
      });
    });
  });
}
