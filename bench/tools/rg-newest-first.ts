import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';

/** A listing ordered newest first: how many files, and the first `limit` of them. */
export interface OrderedListing {
  total: number;
  first: string[];
}

/**
 * The baseline for our newest-first tools: rg's listing (`rg --files …` or
 * `rg --files-with-matches …`, as a user types it) ordered newest first across the tree
 * the cheapest straightforward way, in this process (no second Node start-up): read rg's
 * stdout, stat each path as its line arrives, sort everything by modification time
 * (newest first, ties by path, as our tools order them) once rg has exited.
 */
export function rgThenNewestFirst(rg: string, args: string[], cwd: string, limit: number): Promise<OrderedListing> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const entries: Array<{ path: string; mtimeMs: number }> = [];
    let total = 0;
    let partial = '';
    const onLine = (line: string): void => {
      total += 1;
      const info = statSync(`${cwd}/${line}`, { throwIfNoEntry: false });
      if (info) entries.push({ path: line, mtimeMs: info.mtimeMs });
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) onLine(line);
    });
    child.once('error', reject);
    child.once('close', () => {
      if (partial !== '') onLine(partial);
      entries.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      resolve({ total, first: entries.slice(0, limit).map((entry) => entry.path) });
    });
  });
}

/** rg's own listing in its own order (for `--sortr modified`), every line kept. */
export function rgListing(rg: string, args: string[], cwd: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
    });
    child.once('error', reject);
    child.once('close', () => resolve(text.split('\n').filter((line) => line !== '')));
  });
}

/** The paths and total a glob or grep files-mode result shows (`…\n\n[Showing 100 of 16780 files, …]`). */
export function shownListing(text: string): OrderedListing {
  const cut = text.lastIndexOf('\n\n[');
  const summary = text.slice(cut + 3);
  const total = Number((/^Showing \d+ of (\d+)/.exec(summary) ?? /^(\d+) files?/.exec(summary))?.[1] ?? NaN);
  return { total, first: text.slice(0, cut).split('\n') };
}

export function sameListing(a: OrderedListing, b: OrderedListing): boolean {
  return a.total === b.total && a.first.length === b.first.length && a.first.every((file, i) => file === b.first[i]);
}
