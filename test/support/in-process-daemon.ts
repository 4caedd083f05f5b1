import { PassThrough } from 'node:stream';
import { createDaemonShell, type ShellOptions } from '../../src/daemon/create-daemon-shell.js';
import type { DaemonContext } from '../../src/server/daemon-context.js';
import { loadDaemonSettings } from '../../src/daemon/load-daemon-settings.js';
import { serveConnection } from '../../src/server/wire/serve-connection.js';
import type { PermissionMode } from '../../src/tools/permissions/permission-modes.js';
import type { FindSessionOwner } from '../../src/daemon/cluster/session-owner.js';
import { RpcPeer } from './rpc-peer.js';

export interface InProcessDaemon {
  /** A client on an in-memory stream pair, speaking NDJSON JSON-RPC to the daemon's real connection code. */
  peer: RpcPeer;
  /** Another client of the same daemon (as a second editor on its socket would be). */
  connect(): RpcPeer;
  /** The byte streams of another connection, for a client that brings its own JSON-RPC (the ACP SDK). */
  connectStreams(): { toDaemon: PassThrough; fromDaemon: PassThrough };
  /** What the daemon logged, one line per entry (a child's stderr). */
  logs: string[];
  stderr(): string;
  /** The daemon's shared state (built on first need, as the served one is). */
  context(): Promise<DaemonContext>;
  /** Hangs up the client and shuts the daemon down (store closed, lock released). */
  close(): Promise<void>;
}

/**
 * The daemon `agentd serve` runs — settings from `env` (AGENTD_HOME), the data-directory
 * lock, the shell, the store in a real SQLite file, providers, tools — served over an
 * in-memory stream pair in this process: what the wire carries is exactly what stdio
 * would, without a child process per test. Keep child processes for what only a process
 * shows (framing on real pipes, sockets, signals, the CLI, crash recovery).
 */
export function startInProcessDaemon(
  env: NodeJS.ProcessEnv,
  cwd: string,
  options: { permissionMode?: PermissionMode; shell?: ShellOptions; findSessionOwner?: FindSessionOwner } = {},
): InProcessDaemon {
  const logs: string[] = [];
  const { shell: shellOptions, ...start } = options;
  const settings = loadDaemonSettings({ cwd, env, version: 'test', write: (line) => void logs.push(line), ...start });
  const shell = createDaemonShell(settings, shellOptions);
  const streams = (): { toDaemon: PassThrough; fromDaemon: PassThrough; closed: Promise<unknown> } => {
    const toDaemon = new PassThrough();
    const fromDaemon = new PassThrough();
    const { closed } = serveConnection(shell, toDaemon, fromDaemon, { kind: 'memory' });
    return { toDaemon, fromDaemon, closed };
  };
  const connect = (): { peer: RpcPeer; hangUp(): Promise<void> } => {
    const { toDaemon, fromDaemon, closed } = streams();
    return {
      peer: new RpcPeer(fromDaemon, toDaemon),
      hangUp: async () => {
        toDaemon.end();
        await closed;
      },
    };
  };
  const first = connect();
  let closing: Promise<void> | undefined;
  return {
    peer: first.peer,
    connect: () => connect().peer,
    connectStreams: () => {
      const { toDaemon, fromDaemon } = streams();
      return { toDaemon, fromDaemon };
    },
    logs,
    stderr: () => logs.join('\n'),
    context: () => shell.context(),
    close() {
      closing ??= (async () => {
        await first.hangUp();
        // Every other client is told by its connection closing, as on a daemon's shutdown.
        await shell.shutdown();
      })();
      return closing;
    },
  };
}
