import { showControlCharacters } from '../../config/show-control-characters.js';

/** One row of `agentd sessions`: what a person picks a session by. */
export interface SessionRow {
  id: string;
  updatedAt: string;
  /** The model that answered last (`provider/model`), or null when none has yet. */
  model: string | null;
  costUsd: number;
  cwd: string;
  title: string | null;
}

/** How many leading characters of an id the table shows; `sessions show|delete|export` take any unambiguous prefix. */
export const SHORT_ID_LENGTH = 8;

/**
 * The sessions as a table with a header: short id, when it last changed (relative, or the
 * local date and time when older than a week), model, cost, directory and title. The
 * title is the model's and the directory a repository's name: every control shown.
 */
export function formatSessionTable(rows: SessionRow[], now: Date = new Date()): string {
  const cells = rows.map((r) => [
    r.id.slice(0, SHORT_ID_LENGTH),
    relativeTime(new Date(r.updatedAt), now),
    r.model ?? '-',
    `$${r.costUsd.toFixed(4)}`,
    r.cwd,
    r.title ?? '',
  ].map((cell) => showControlCharacters(cell)));
  const table = [['ID', 'UPDATED', 'MODEL', 'COST', 'DIRECTORY', 'TITLE'], ...cells];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => [...row[column]!].length)));
  return table.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd() + '\n').join('');
}

/** "just now", "5 min ago", "3 h ago", "2 days ago"; past a week, the local date and time. */
export function relativeTime(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${then.getFullYear()}-${pad(then.getMonth() + 1)}-${pad(then.getDate())} ${pad(then.getHours())}:${pad(then.getMinutes())}`;
}
