import { existsSync } from 'node:fs';
import type { AgentdPaths } from '../../config/agentd-paths.js';
import { loadProjectConfig, readUserConfig } from '../../config/load-config.js';
import type { StoreConfig } from '../../config/config-schema.js';
import { chooseStore, openDaemonStore } from '../../daemon/open-daemon-store.js';
import { tryLockDataDir } from '../../store/data-dir-lock.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/store.js';
import { StoreError } from '../../store/store-error.js';

/** The store the daemon of these paths uses: AGENTD_STORE_URL, else the user config's `store`, else the SQLite file. */
export function sessionsStoreChoice(paths: AgentdPaths, env: NodeJS.ProcessEnv): StoreConfig {
  // Only the user's config chooses the store (a project's never does), as for the daemon.
  const { config } = loadProjectConfig(readUserConfig({ cwd: paths.configDir, paths }), undefined);
  return chooseStore(config, env);
}

export interface SessionsStoreOptions<T> {
  /** The command, as its errors name it ("agentd sessions list"). */
  command: string;
  /** What to answer when there is no SQLite file yet: no sessions, and nothing is created just to look. */
  missing: () => Promise<T>;
}

/**
 * Runs `read` on the sessions' store. On PostgreSQL that is the database every daemon of
 * the cluster shares, whoever runs here. On SQLite it is the data directory's file: opened
 * read-only while a daemon owns the directory, otherwise holding its lock meanwhile, so no
 * daemon starts recovering under it.
 */
export async function withSessionsStore<T>(paths: AgentdPaths, env: NodeJS.ProcessEnv, read: (store: Store) => Promise<T>, options: SessionsStoreOptions<T>): Promise<T> {
  const choice = sessionsStoreChoice(paths, env);
  if (choice.type === 'postgres') {
    const store = await openChosenStore(choice, paths, options.command);
    try {
      return await read(store);
    } finally {
      await store.close();
    }
  }
  const attempt = tryLockDataDir(paths.dataDir);
  try {
    if (!existsSync(paths.databaseFile)) return await options.missing();
    const store = openStore(paths.databaseFile, { readOnly: attempt.kind === 'held' });
    try {
      return await read(store);
    } finally {
      await store.close();
    }
  } finally {
    if (attempt.kind === 'acquired') attempt.lock.release();
  }
}

/**
 * Opens the chosen store for writing (the caller holds the data directory's lock when it
 * is SQLite's). A database that cannot be reached is an error naming the command, the
 * store (its password hidden) and what to check.
 */
export async function openChosenStore(choice: StoreConfig, paths: AgentdPaths, command: string): Promise<Store> {
  try {
    return await openDaemonStore(choice, paths.databaseFile);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'unavailable') throw new StoreError('unavailable', `${command}: ${error.message}`, { cause: error });
    throw error;
  }
}
