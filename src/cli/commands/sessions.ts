import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveAgentdPaths, type AgentdPaths } from '../../config/agentd-paths.js';
import { jsonForTerminal, showControlCharacters } from '../../config/show-control-characters.js';
import { describeOwner, tryLockDataDir, type DataDirOwner } from '../../store/data-dir-lock.js';
import type { Store } from '../../store/store.js';
import { renderSessionMarkdown } from '../../session/render-session-markdown.js';
import { exportSession } from '../../session/session-export.js';
import { formatSessionTable, type SessionRow } from '../sessions/format-session-table.js';
import { resolveSessionId } from '../sessions/resolve-session-id.js';
import { openChosenStore, sessionsStoreChoice, withSessionsStore } from '../sessions/with-sessions-store.js';

/**
 * `agentd sessions [list]`, `show ID`, `export ID`, `delete ID`, on the store the daemon
 * uses (the shared PostgreSQL database when one is configured). Reading works beside a
 * running daemon (SQLite's file opened read-only); deleting goes through the daemon that
 * owns the data directory when one does, so its live sessions stop first.
 */
export async function sessionsCommand(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const action = first === undefined || first.startsWith('-') ? 'list' : first;
  const args = action === first ? rest : argv;
  const paths = resolveAgentdPaths(process.env);
  switch (action) {
    case 'list':
      return listSessions(paths, args);
    case 'show':
    case 'export':
      return showSession(paths, action, args);
    case 'delete':
      return deleteSession(paths, args);
    default:
      throw new Error(`agentd sessions: unknown action "${action}"; use list, show ID, export ID or delete ID (agentd sessions --help)`);
  }
}

function listSessions(paths: AgentdPaths, argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { cwd: { type: 'string' }, json: { type: 'boolean' }, all: { type: 'boolean' } }, strict: true });
  return withSessionsStore(paths, process.env, async (store) => {
    const query = values.cwd ? { cwd: resolve(values.cwd) } : {};
    let cursor: string | null = null;
    const rows: SessionRow[] = [];
    do {
      const page = await store.listSessions({ ...query, ...(cursor ? { cursor } : {}) });
      for (const s of page.sessions) {
        // The title is the model's, the directory a repository's name: one line each, every control shown.
        if (values.json) process.stdout.write(jsonForTerminal(s) + '\n');
        else rows.push({ id: s.id, updatedAt: s.updatedAt, model: s.model ?? (await lastModel(store, s.id)), costUsd: s.totalCostUsd, cwd: s.cwd, title: s.title });
      }
      cursor = values.all ? page.nextCursor : null;
    } while (cursor);
    if (rows.length > 0) process.stdout.write(formatSessionTable(rows));
    return 0;
  }, { command: 'agentd sessions list', missing: async () => 0 });
}

function showSession(paths: AgentdPaths, action: 'show' | 'export', argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, format: { type: 'string' }, output: { type: 'string', short: 'o' } },
    allowPositionals: true,
    strict: true,
  });
  const given = onlyId(action, positionals);
  const format = values.format ?? (values.json ? 'json' : 'markdown');
  if (format !== 'markdown' && format !== 'json') throw new Error(`agentd sessions ${action}: --format must be markdown or json, not "${format}"`);
  return withSessionsStore(paths, process.env, async (store) => {
    const id = await resolveSessionId(store, given, action);
    const session = (await store.getSession(id))!;
    const messages = await store.listMessages(id);
    const turns = await store.listTurns(id);
    const record = { session, turns, messages };
    const markdown = (): string => renderSessionMarkdown(session, messages, { full: action === 'export' });
    if (values.output) {
      // A file gets the conversation exactly as stored, as a client's export does.
      writeFileSync(values.output, action === 'export' || format === 'json' ? exportSession(session, turns, messages, format).content : markdown());
      process.stderr.write(`agentd: wrote session ${id} to ${values.output}\n`);
    } else {
      // stdout is often a terminal: the model's and tools' words keep their lines and tabs, every other control is shown.
      process.stdout.write(format === 'json' ? `${jsonForTerminal(record, 2)}\n` : showControlCharacters(markdown(), { keep: '\n\t' }));
    }
    return 0;
  }, { command: `agentd sessions ${action}`, missing: async () => { throw new Error(`agentd sessions ${action}: no session ${given}; there are no sessions yet`); } });
}

async function deleteSession(paths: AgentdPaths, argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true });
  const given = onlyId('delete', positionals);
  const attempt = tryLockDataDir(paths.dataDir);
  if (attempt.kind === 'held') return deleteThroughOwner(paths, attempt.owner, given);
  let id = given;
  try {
    const choice = sessionsStoreChoice(paths, process.env);
    if (choice.type === 'sqlite' && !existsSync(paths.databaseFile)) throw new Error(`agentd sessions delete: no session ${given}; there are no sessions yet`);
    const store = await openChosenStore(choice, paths, 'agentd sessions delete');
    try {
      id = await resolveSessionId(store, given, 'delete');
      await store.deleteSession(id);
    } finally {
      await store.close();
    }
  } finally {
    attempt.lock.release();
  }
  process.stderr.write(`agentd: deleted session ${id}\n`);
  return 0;
}

/** A running daemon owns the store: it stops the session (if live) and deletes it. */
async function deleteThroughOwner(paths: AgentdPaths, owner: DataDirOwner | undefined, given: string): Promise<number> {
  if (!owner?.socketPath) {
    throw new Error(`agentd sessions delete: ${describeOwner(paths.dataDir, owner)} and serves no socket; stop it, or delete the session from a client of it`);
  }
  const id = await withSessionsStore(paths, process.env, (store) => resolveSessionId(store, given, 'delete'), {
    command: 'agentd sessions delete',
    missing: async () => {
      throw new Error(`agentd sessions delete: no session ${given}; there are no sessions yet`);
    },
  });
  // Loaded only here: listing and showing never need the client.
  const { connectAgentdClient } = await import('../../../clients/typescript/src/index.js');
  const client = await connectAgentdClient(owner.socketPath);
  try {
    await client.initialize({ protocolVersion: 1, clientInfo: { name: 'agentd-sessions', version: '1' } });
    await client.deleteSession({ sessionId: id });
  } finally {
    client.close();
  }
  process.stderr.write(`agentd: deleted session ${id} (through the running daemon, pid ${owner.pid})\n`);
  return 0;
}

/** The model that wrote the session's last answer, for a session that keeps the configured default. */
async function lastModel(store: Store, sessionId: string): Promise<string | null> {
  const messages = await store.listMessages(sessionId);
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.model) return messages[i]!.model;
  return null;
}

function onlyId(action: string, positionals: string[]): string {
  if (positionals.length !== 1) throw new Error(`agentd sessions ${action} needs one session id or the start of one: agentd sessions ${action} ID (agentd sessions lists them)`);
  return positionals[0]!;
}
