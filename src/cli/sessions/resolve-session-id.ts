import type { Store } from '../../store/store.js';

/**
 * The session a user means by `idOrPrefix`: the exact id, else the one session whose id
 * starts with it (the table shows 8 characters). No match, or several, is an error that
 * says so and, for several, lists them.
 */
export async function resolveSessionId(store: Store, idOrPrefix: string, action: string): Promise<string> {
  if (await store.getSession(idOrPrefix)) return idOrPrefix;
  const matches: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.listSessions({ limit: 200, ...(cursor ? { cursor } : {}) });
    for (const s of page.sessions) if (idOrPrefix !== '' && s.id.startsWith(idOrPrefix)) matches.push(s.id);
    cursor = page.nextCursor;
  } while (cursor);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new Error(`agentd sessions ${action}: no session ${idOrPrefix}; agentd sessions lists them`);
  throw new Error(`agentd sessions ${action}: "${idOrPrefix}" starts ${matches.length} session ids (${matches.join(', ')}); give more of the id`);
}
