import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectAgentdClient } from '../../../clients/typescript/src/index.js';
import type { DaemonClusterResponse, DaemonStatusResponse } from '../../../protocol/index.js';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { isSocketLive } from '../../server/wire/transports/is-socket-live.js';
import { describeCluster } from '../describe-cluster.js';
import { describeDaemonKind } from '../describe-daemon-kind.js';
import { findRunningDaemon } from '../daemon/find-running-daemon.js';
import { packageVersion } from '../package-version.js';

/** `agentd status` exits with this when no daemon runs (as `systemctl status` does for a stopped unit). */
export const STATUS_NOT_RUNNING = 3;

/**
 * `agentd status`: whether a daemon owns the data directory, and when it serves a socket,
 * what it says about itself (`daemon/status`): pid, uptime, clients, sessions, where it logs.
 */
export async function statusCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true });
  const paths = resolveAgentdPaths(process.env);
  const found = findRunningDaemon(paths.dataDir);
  const print = (text: string, json: unknown): void => void process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
  if (found.kind === 'none') {
    print(
      `agentd is not running (data directory ${paths.dataDir}); \`agentd serve --socket\` starts the shared daemon, \`agentd acp\` starts one on demand`,
      { running: false, dataDir: paths.dataDir },
    );
    return STATUS_NOT_RUNNING;
  }
  const owner = found.owner;
  if (!owner?.socketPath || !(await isSocketLive(owner.socketPath))) {
    // A stdio daemon (`agentd run`, `agentd serve --stdio`): its owner file is all there is to say.
    const pid = owner ? `pid ${owner.pid}, started ${owner.startedAt}` : 'pid not recorded yet';
    print(`agentd is running (${pid}), serving one client on stdio: ${describeDaemonKind(owner)}`, { running: true, dataDir: paths.dataDir, ...owner });
    return 0;
  }
  const client = await connectAgentdClient(owner.socketPath);
  let status: DaemonStatusResponse;
  let cluster: DaemonClusterResponse;
  try {
    await client.initialize({ protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'agentd status', version: packageVersion() } });
    status = await client.daemonStatus({});
    cluster = await client.daemonCluster({});
  } finally {
    client.close();
  }
  // This command's own connection is not one of the daemon's clients.
  const clients = Math.max(0, status.clients - 1);
  const uptimeMs = Date.now() - Date.parse(status.startedAt);
  const log = status.logFile ? `${status.logFile} (agentd logs)` : `its stderr (started by \`agentd serve\`; ${join(paths.logDir, 'daemon.log')} holds what on-demand daemons wrote)`;
  print(
    [
      `agentd ${status.version} is running (pid ${status.pid}): ${describeDaemonKind({ ...owner, idleExitMs: status.idleExitMs })}`,
      `  socket:   ${status.socket ?? owner.socketPath}`,
      `  uptime:   ${formatUptime(uptimeMs)} (since ${status.startedAt})`,
      `  clients:  ${clients} connected`,
      `  sessions: ${status.sessions.loaded} loaded, ${status.sessions.running} running`,
      `  log:      ${log}`,
      ...(status.http ? [`  web:      ${status.http} (agentd dashboard for a login address)`] : []),
      ...describeCluster(cluster),
    ].join('\n'),
    { running: true, dataDir: paths.dataDir, ...status, clients, cluster },
  );
  return 0;
}

/** 3725000 → "1 h 2 min", 42000 → "42 s". */
function formatUptime(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
