import type { AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { ServedFolders } from '../config/served-folders.js';
import { lockDataDir } from '../store/data-dir-lock.js';
import type { Store } from '../store/store.js';
import { describeSandbox } from '../tools/sandbox/detect-sandbox.js';
import { prepareToolJsonSchemas } from '../tools/tool-json-schema.js';
import type { ClientConnection } from '../server/wire/client-connection.js';
import { userSandbox } from '../project/projects.js';
import type { StartedSessionUpdates } from './cluster/start-session-updates.js';
import { DEFAULT_CONCURRENCY, joinCluster, type ClusterMembership } from './cluster/join-cluster.js';
import { createDaemonContext, type BuiltDaemonContext } from './create-daemon-context.js';
import { followConfigChanges } from './follow-config-changes.js';
import { chooseStore, openDaemonStore } from './open-daemon-store.js';
import { redactStoreUrl } from '../store/postgres-errors.js';
import { TurnSlots } from '../session/turn-slots.js';
import { openCluster, type ClusterLinks } from './cluster/open-cluster.js';
import { GoneDaemonSweeper } from './cluster/forget-gone-daemons.js';
import { createRunQueuedPrompt } from './cluster/run-queued-prompt.js';
import { PendingPromptRescue } from './cluster/rescue-pending-prompts.js';
import { realFolderHere } from '../config/served-folders.js';
import { followerQuestionPorts } from './cluster/follower-question-ports.js';
import { loadDaemonSettings, type DaemonSettings, type StartOptions } from './load-daemon-settings.js';
import { reportMcpServerStates } from './report-mcp-server-states.js';
import { recordProviderIncidents } from './record-provider-incidents.js';
import { reportSessionChanges } from './report-session-changes.js';

export type { StartOptions } from './load-daemon-settings.js';

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
  // What is open so far, closed in reverse when a later step fails: a start that fails leaves nothing behind.
  const opened: Array<() => unknown> = [() => lock.release()];
  const fail = async (error: unknown): Promise<never> => {
    for (const close of opened.reverse()) await Promise.resolve().then(close).catch(() => undefined);
    throw error;
  };
  const pgBossFailed = (error: unknown): Error =>
    new Error(`pg-boss (the work queue in the PostgreSQL store) did not start: ${(error as Error).message}`, { cause: error });
  // Each root's real path; one missing here stops the start, naming it (a typo must not serve nothing).
  const folders = await Promise.resolve()
    .then(() => ServedFolders.resolve(config.cluster?.roots))
    .catch(fail);
  // A store opened by the caller (tests) is one daemon's.
  const choice = options.openStore ? undefined : await Promise.resolve().then(() => chooseStore(config, options.env)).catch(fail);
  // With PostgreSQL the lock above still guards only this machine's data directory.
  const store: Store = await Promise.resolve()
    .then(() => (options.openStore ? options.openStore(paths.databaseFile) : openDaemonStore(choice!, paths.databaseFile)))
    .catch(fail);
  opened.push(() => store.close());
  const cluster: ClusterMembership = await joinCluster(store, config, folders, log).catch(fail);
  opened.push(() => cluster.leave());
  // Turns still 'running' whose owner is gone: on SQLite (under the lock) every one; on
  // PostgreSQL those of sessions no live daemon holds (another daemon's turns go on).
  const recovered = await store.recoverInterruptedTurns().catch(fail);
  if (recovered.length > 0) log(`marked ${recovered.length} turn(s) interrupted by an earlier stop`);
  // Probed in the background so the first client is not kept waiting; bash awaits it.
  // `sandbox.enabled: false` turns bubblewrap off on purpose: bash then asks every time.
  const sandbox = userSandbox(config);
  void sandbox.then((info) => {
    if (info.mode === 'none') log(`bash runs without a sandbox (${describeSandbox(info)}); each command asks permission`);
  });
  // Interactive and headless turns together; a sub-agent runs in its parent's slot.
  const slots = new TurnSlots(config.cluster?.concurrency ?? DEFAULT_CONCURRENCY);
  // Requests for a session another live daemon holds go to it (tests may name the owner themselves).
  const findSessionOwner = options.findSessionOwner ?? ((sessionId: string) => cluster.leases.heldElsewhere(sessionId));
  const links: ClusterLinks = await openCluster(choice ?? { type: 'sqlite' }, { taker: cluster, slots, findSessionOwner, log }).catch((error: unknown) =>
    fail(pgBossFailed(error)),
  );
  opened.push(async () => {
    links.work.stopTaking();
    await links.routing.stop();
    await links.close();
  });
  const daemon = createDaemonContext(settings, store, cluster, sandbox, clients ?? new Set<ClientConnection>(), { slots, queue: links.work, routing: links.routing });
  cluster.follow(daemon.sessions);
  if (choice?.type === 'postgres') daemon.storeInUse = { type: 'postgres', location: redactStoreUrl(choice.url) };
  // Before anything that runs in the background: a queue that cannot start stops the start-up cleanly.
  try {
    await links.work.start(createRunQueuedPrompt(daemon.sessions, slots, daemon.clients));
    await links.routing.start(daemon.sessions);
  } catch (error) {
    await fail(pgBossFailed(error));
  }
  // What daemons that died left behind is cleared by the live ones (PostgreSQL only).
  const sweeper = new GoneDaemonSweeper(store.cluster, links.routing, cluster.leaseMs, log);
  sweeper.start();
  opened.push(() => sweeper.stop());
  // Steers and follow-ups a stopped daemon left waiting run here as their own turns: at once
  // (on SQLite, what the previous process left), and on PostgreSQL every third of a lease.
  const folderOf = async (sessionId: string): Promise<string> => realFolderHere((await store.getSession(sessionId))?.cwd ?? '/');
  const rescue = new PendingPromptRescue({ pendingPrompts: store.pendingPrompts, daemonId: cluster.daemonId, work: links.work, folderOf, log });
  opened.push(() => rescue.stop());
  await rescue.rescue();
  if (store.cluster.shared) rescue.every(Math.max(1, Math.floor(cluster.leaseMs / 3)));
  // On PostgreSQL, clients of any daemon follow every session; loaded only then, as pg is.
  let crossDaemon: StartedSessionUpdates | undefined;
  if (choice?.type === 'postgres') {
    const { startSessionUpdates } = await import('./cluster/start-session-updates.js');
    const holdsLease = (sessionId: string): boolean => cluster.leases.holds(sessionId);
    const otherLiveDaemons = async (): Promise<string[]> => (await cluster.liveDaemonIds()).filter((id) => id !== cluster.daemonId);
    const questions = followerQuestionPorts(daemon, links.routing);
    crossDaemon = await startSessionUpdates(choice.url, { daemonId: cluster.daemonId, holdsLease, otherLiveDaemons }, daemon.sessions, questions, log).catch(fail);
  }
  if (crossDaemon) {
    daemon.crossDaemonUpdates = crossDaemon;
    links.routing.onQuestionReply((reply) => crossDaemon.questionReplied(reply));
    daemon.questionsElsewhere.askEverywhere = (root, question, signal, askHere) => crossDaemon.askEverywhere(root, question, signal, askHere);
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
      await rescue.stop();
      // No job is taken from here on; jobs waiting on pg-boss stay for another daemon.
      links.work.stopTaking();
      await sweeper.stop();
      await links.routing.stop();
      // First, so a run's history row records the shutdown before its session is aborted.
      await daemon.scheduler.stop();
      await watching;
      await daemon.reloader.close();
      await daemon.sessions.shutdown();
      // After the sessions: their turns' last updates go out first.
      await crossDaemon?.close();
      // After the turns were stopped: the jobs in hand settle (a committed one is complete, never re-run).
      await links.work.close();
      await links.close();
      await daemon.mcp.stopAll();
      // After the sessions stopped: their leases go at once, not when they expire.
      await cluster.leave();
      await store.close();
      lock.release();
    },
  };
}
