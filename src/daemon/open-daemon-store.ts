import type { AgentdConfig, StoreConfig } from '../config/config-schema.js';
import { PostgresUrlSchema } from '../config/config-schema.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { StoreError } from '../store/store-error.js';

/**
 * Which store the daemon uses: `AGENTD_STORE_URL` when set (a PostgreSQL URL), else the
 * config's `store`, else the SQLite file in the data directory.
 */
export function chooseStore(config: AgentdConfig, env: NodeJS.ProcessEnv): StoreConfig {
  const fromEnv = env.AGENTD_STORE_URL;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!PostgresUrlSchema.safeParse(fromEnv).success) {
      throw new StoreError(
        'invalid_argument',
        'AGENTD_STORE_URL must be a PostgreSQL URL such as "postgres://agentd:PASSWORD@db.example.com:5432/agentd"; unset it to use the SQLite file in the data directory',
      );
    }
    return { type: 'postgres', url: fromEnv };
  }
  return config.store ?? { type: 'sqlite' };
}

/**
 * Opens the chosen store. With PostgreSQL the data-directory lock the daemon holds still
 * guards only the local data directory (sockets, tokens, logs); which daemon runs a
 * session in the shared database is its lease's business (src/daemon/cluster/).
 */
export async function openDaemonStore(choice: StoreConfig, databaseFile: string): Promise<Store> {
  if (choice.type !== 'postgres') return openStore(databaseFile);
  // Loaded only when chosen: the SQLite default never pays for pg at start-up.
  const { openPostgresStore } = await import('../store/postgres-store.js');
  return openPostgresStore(choice.url);
}
