import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { AGENTS_FILE_NAME, findRepositoryRoot } from './find-agents-files.js';

/** What changed, after a burst of saves has settled. */
export type ConfigChange =
  /** The user's config file, `<configDir>/AGENTS.md`, agents or skills. */
  | { scope: 'user'; files: string[] }
  /** A project's `.agentd/` (config.json, agents, skills) or an AGENTS.md from its repository root down. */
  | { scope: 'project'; root: string; files: string[] };

export interface ConfigWatcherOptions {
  /** The user's config file (`--config FILE` or the default), watched even before it exists. */
  userConfigFile: string;
  /** The user's config directory (agents/, skills/, AGENTS.md). */
  userConfigDir: string;
  onChange(change: ConfigChange): void;
  log(line: string): void;
  /** A change applies once no other came for this long (editors save in bursts); 150 ms when absent. */
  quietMs?: number;
  /** Projects watched at once; more are not watched (their config.json still applies: see below). 32 when absent. */
  maxProjects?: number;
}

interface ProjectWatch {
  users: number;
  /** False for a project beyond the bound. */
  watched: boolean;
  watcher: FSWatcher | undefined;
  ready: Promise<void>;
}

/**
 * Watches the files a session's configuration comes from and reports each burst of
 * changes once. The user's files are watched for the daemon's life; a project's only
 * while a session uses it (acquire/release, counted), and at most `maxProjects` at once,
 * since each watch holds inotify handles. A project beyond the bound is not watched: its
 * `.agentd/config.json` is still checked (one stat) whenever a session takes up its
 * settings, so only AGENTS.md, skill and agent edits wait for its sessions' next turn.
 */
export class ConfigWatcher {
  private readonly projects = new Map<string, ProjectWatch>();
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; files: Set<string>; change: (files: string[]) => ConfigChange }>();
  private user: FSWatcher | undefined;
  private boundLogged = false;
  private closed = false;

  constructor(private readonly options: ConfigWatcherOptions) {}

  /** Starts watching the user's files; resolves once the watch is in place. */
  async start(): Promise<void> {
    const { userConfigFile, userConfigDir } = this.options;
    const configDir = path.resolve(userConfigDir);
    const configFile = path.resolve(userConfigFile);
    const dirs = new Set([configDir, path.dirname(configFile)]);
    // A folder that does not exist yet cannot be watched: watch its nearest existing
    // ancestor, walking only the path down to it, so creating it later is seen.
    const roots = new Set([...dirs].map(nearestExisting));
    const ancestors = new Set([...dirs].flatMap((dir) => between(nearestExisting(dir), dir)));
    const wanted = (file: string): boolean =>
      dirs.has(file) ||
      ancestors.has(file) ||
      file === configFile ||
      file === path.join(configDir, AGENTS_FILE_NAME) ||
      isWithin(file, path.join(configDir, 'agents')) ||
      isWithin(file, path.join(configDir, 'skills'));
    this.user = this.watchPaths([...roots], wanted, 'user', (files) => ({ scope: 'user', files }));
    await ready(this.user);
  }

  /**
   * Counts one more session of the project at `root` (a real path) and watches it when it
   * is the first; resolves once the watch is in place.
   */
  async acquire(root: string): Promise<void> {
    const existing = this.projects.get(root);
    if (existing) {
      existing.users++;
      return existing.ready;
    }
    const limit = this.options.maxProjects ?? 32;
    const entry: ProjectWatch = { users: 1, watched: this.watchedCount() < limit, watcher: undefined, ready: Promise.resolve() };
    this.projects.set(root, entry);
    if (!entry.watched) {
      if (!this.boundLogged) {
        this.boundLogged = true;
        this.options.log(
          `watching the configuration of ${limit} projects already; ${root} and later ones are not watched: ` +
            'their .agentd/config.json still applies from the next model request, AGENTS.md, skill and agent edits from the next turn',
        );
      }
      return;
    }
    entry.ready = this.watchProject(root, entry);
    return entry.ready;
  }

  /** Counts one session fewer; the last one stops the project's watch. */
  async release(root: string): Promise<void> {
    const entry = this.projects.get(root);
    if (!entry) return;
    if (--entry.users > 0) return;
    this.projects.delete(root);
    this.drop(`project\u0000${root}`);
    await entry.watcher?.close();
  }

  /** The project roots being watched now (for `agentd doctor` and tests). */
  watchedProjects(): string[] {
    return [...this.projects].filter(([, entry]) => entry.watched).map(([root]) => root);
  }

  /** Stops every watch and drops changes not yet reported (daemon shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const key of [...this.pending.keys()]) this.drop(key);
    const watchers = [this.user, ...[...this.projects.values()].map((entry) => entry.watcher)];
    this.projects.clear();
    this.user = undefined;
    await Promise.all(watchers.map((watcher) => watcher?.close()));
  }

  private async watchProject(root: string, entry: ProjectWatch): Promise<void> {
    // AGENTS.md files apply from the repository root down to the session directory.
    const repository = (await findRepositoryRoot(root)) ?? root;
    const dirs = new Set<string>();
    for (let dir = root; ; dir = path.dirname(dir)) {
      dirs.add(dir);
      if (dir === repository || path.dirname(dir) === dir) break;
    }
    const own = path.join(root, '.agentd');
    const wanted = (file: string): boolean =>
      dirs.has(file) || (path.basename(file) === AGENTS_FILE_NAME && dirs.has(path.dirname(file))) || isWithin(file, own);
    if (this.closed || this.projects.get(root) !== entry) return;
    const watcher = this.watchPaths([...dirs], wanted, `project\u0000${root}`, (files) => ({ scope: 'project', root, files }));
    entry.watcher = watcher;
    await ready(watcher);
  }

  private watchPaths(paths: string[], wanted: (file: string) => boolean, key: string, change: (files: string[]) => ConfigChange): FSWatcher {
    const watcher = watch(paths, {
      ignoreInitial: true,
      // Only what a configuration is read from: a repository's other folders are never walked.
      ignored: (file) => !wanted(path.resolve(file)),
    });
    watcher.on('all', (_event, file) => this.note(key, path.resolve(file), change));
    watcher.on('error', (error) => this.options.log(`cannot watch configuration files (${paths.join(', ')}): ${(error as Error).message}`));
    return watcher;
  }

  /** Collects a change; the burst is reported once nothing more came for quietMs. */
  private note(key: string, file: string, change: (files: string[]) => ConfigChange): void {
    if (this.closed) return;
    const pending = this.pending.get(key) ?? { timer: undefined as unknown as NodeJS.Timeout, files: new Set<string>(), change };
    clearTimeout(pending.timer);
    pending.files.add(file);
    pending.timer = setTimeout(() => {
      this.pending.delete(key);
      try {
        this.options.onChange(pending.change([...pending.files].sort()));
      } catch (error) {
        this.options.log(`applying a configuration change failed: ${(error as Error).stack ?? String(error)}`);
      }
    }, this.options.quietMs ?? 150);
    this.pending.set(key, pending);
  }

  private drop(key: string): void {
    const pending = this.pending.get(key);
    if (pending) clearTimeout(pending.timer);
    this.pending.delete(key);
  }

  private watchedCount(): number {
    let count = 0;
    for (const entry of this.projects.values()) if (entry.watched) count++;
    return count;
  }
}

function ready(watcher: FSWatcher): Promise<void> {
  return new Promise((resolve) => watcher.once('ready', () => resolve()));
}

/** `dir` itself when it exists, else its nearest existing ancestor. */
function nearestExisting(dir: string): string {
  let current = dir;
  while (!fs.existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

/** The folders from `ancestor` (included) down to `dir` (excluded). */
function between(ancestor: string, dir: string): string[] {
  const chain: string[] = [];
  for (let current = path.dirname(dir); current.length >= ancestor.length; current = path.dirname(current)) {
    chain.push(current);
    if (current === ancestor || path.dirname(current) === current) break;
  }
  return dir === ancestor ? [] : chain;
}

/** `dir` itself or anything under it. */
function isWithin(file: string, dir: string): boolean {
  return file === dir || file.startsWith(dir + path.sep);
}
