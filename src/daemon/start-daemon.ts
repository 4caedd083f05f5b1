import type { AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { lockDataDir } from '../store/data-dir-lock.js';
import type { Store } from '../store/store.js';
import { describeSandbox } from '../tools/sandbox/detect-sandbox.js';
import { prepareToolJsonSchemas } from '../tools/tool-json-schema.js';
import type { ClientConnection } from '../server/wire/client-connection.js';
import { userSandbox } from '../project/projects.js';
import { createDaemonContext, type BuiltDaemonContext } from './create-daemon-context.js';
import { followConfigChanges } from './follow-config-changes.js';
import { chooseStore, openDaemonStore } from './open-daemon-store.js';
import type { StoreConfig } from '../config/config-schema.js';
import { TurnSlots } from '../session/turn-slots.js';
import { newDaemonId } from './cluster/daemon-identity.js';
import { openCluster, type ClusterLinks } from './cluster/open-cluster.js';
import { noSessionOwner } from './cluster/session-owner.js';
import { createRunQueuedPrompt } from './cluster/run-queued-prompt.js';
import { loadDaemonSettings, type DaemonSettings, type StartOptions } from './load-daemon-settings.js';
import { reportMcpServerStates } from './report-mcp-server-states.js';
import { recordProviderIncidents } from './record-provider-incidents.js';
import { reportSessionChanges } from './report-session-changes.js';

export type { StartOptions } from './load-daemon-settings.js';

/** Turns one daemon runs at once when `cluster.concurrency` is not set. */
export const DEFAULT_CONCURRENCY = 8;

export interface StartedDaemon {
  daemon: BuiltDaemonContext;
  paths: AgentdPaths;
  config: AgentdConfig;
  store: Store;
  /** Stops running turns and MCP servers, and closes the store. */
  shutdown(): Promise<void>;
}

/** Loads the config, then builds the daemon (see buildDaemon). For headless runs and tests. */
export async function startDaemon(options: StartOptions): Promise<StartedDaemon> {
  return buildDaemon(loadDaemonSettings(options));
}

/**
 * Everything behind the server: the data directory's lock, the store (turns cut short by
 * a crash are marked interrupted), the sessions, providers and tools. The sandbox probe
 * and the configured MCP servers start in the background.
 */
export async function buildDaemon(settings: DaemonSettings, clients?: Set<ClientConnection>): Promise<StartedDaemon> {
  const { options, paths, config, log } = settings;
  // Throws DataDirBusyError (naming the owner) when another daemon has the directory.
  const lock = options.lock ?? lockDataDir(paths.dataDir);
  let store: Store;
  let storeChoice: StoreConfig;
  try {
    storeChoice = chooseStore(config, options.env);
    // With PostgreSQL the lock above still guards only this machine's data directory.
    store = options.openStore ? await options.openStore(paths.databaseFile) : await openDaemonStore(storeChoice, paths.databaseFile);
  } catch (error) {
    lock.release();
    throw error;
  }
  // Under the lock, every turn still 'running' belongs to an owner that is gone.
  const recovered = await store.recoverInterruptedTurns();
  if (recovered.length > 0) log(`marked ${recovered.length} turn(s) interrupted by an earlier stop`);
  // Probed in the background so the first client is not kept waiting; bash awaits it.
  // `sandbox.enabled: false` turns bubblewrap off on purpose: bash then asks every time.
  const sandbox = userSandbox(config);
  void sandbox.then((info) => {
    if (info.mode === 'none') log(`bash runs without a sandbox (${describeSandbox(info)}); each command asks permission`);
  });
  // Interactive and headless turns together; a sub-agent runs in its parent's slot.
  const slots = new TurnSlots(config.cluster?.concurrency ?? DEFAULT_CONCURRENCY);
  let cluster: ClusterLinks;
  try {
    cluster = await openCluster(storeChoice, { daemonId: newDaemonId(), slots, findSessionOwner: options.findSessionOwner ?? noSessionOwner, log });
  } catch (error) {
    await store.close();
    lock.release();
    throw new Error(`pg-boss (the work queue in the PostgreSQL store) did not start: ${(error as Error).message}`, { cause: error });
  }
  const { work, routing } = cluster;
  const daemon = createDaemonContext(settings, store, sandbox, clients ?? new Set<ClientConnection>(), { slots, queue: work, routing });
  // Before anything that runs in the background: a queue that cannot start stops the start-up cleanly.
  try {
    await work.start(createRunQueuedPrompt(daemon.sessions, slots, daemon.clients));
    await routing.start(daemon.sessions);
  } catch (error) {
    await cluster.close().catch(() => undefined);
    await store.close();
    lock.release();
    throw new Error(`pg-boss (the work queue in the PostgreSQL store) did not start: ${(error as Error).message}`, { cause: error });
  }
  // What every session's first model request would otherwise compute: the built-in tools' schemas.
  prepareToolJsonSchemas(daemon.tools.list().map(({ tool }) => tool));
  // In the background, like the sandbox probe; sessions never wait for it, their tools appear when ready.
  reportMcpServerStates(daemon);
  reportSessionChanges(daemon);
  recordProviderIncidents(daemon);
  void daemon.mcp.startConfigured(config.mcpServers);
  // Only the user's own config schedules run (a project file's are ignored); runs a killed daemon left are marked failed.
  const runSchedules = options.runSchedules !== false;
  if (runSchedules) await daemon.scheduler.start(config.schedules ?? []);
  // Edits of config.json, AGENTS.md, skills and agents apply without a restart.
  followConfigChanges(daemon, { schedules: runSchedules });
  const watching = daemon.reloader.start().catch((error: Error) => log(`configuration files are not watched: ${error.message}`));
  return {
    daemon,
    paths,
    config,
    store,
    async shutdown() {
      // No job is taken from here on; jobs waiting on pg-boss stay for another daemon.
      work.stopTaking();
      await routing.stop();
      // First, so a run's history row records the shutdown before its session is aborted.
      await daemon.scheduler.stop();
      await watching;
      await daemon.reloader.close();
      await daemon.sessions.shutdown();
      // After the turns were stopped: the jobs in hand settle (a committed one is complete, never re-run).
      await work.close();
      await cluster.close();
      await daemon.mcp.stopAll();
      await store.close();
      lock.release();
    },
  };
}
