import fs from 'node:fs';
import { ConfigError, formatConfigProblem } from '../config/config-error.js';
import type { AgentdConfig } from '../config/config-schema.js';
import type { ConfigChange, ConfigWatcher } from '../config/config-watcher.js';
import { projectConfigFile, type UserConfigLayer } from '../config/load-config.js';
import type { ProjectSettings, ProjectSettingsResolver } from '../config/project-settings.js';
import type { Session } from '../session/session.js';
import type { SessionManager } from '../session/session-manager.js';
import type { DaemonEvent } from '../../protocol/index.js';
import { broadcastDaemonEvent } from '../server/acp/broadcast-daemon-event.js';
import type { DaemonHealthLog } from '../server/daemon-health-log.js';
import type { ClientConnection } from '../server/wire/client-connection.js';
import type { Projects } from '../project/projects.js';

export interface ConfigReloaderOptions {
  watcher: ConfigWatcher;
  /** Each session directory's settings (re-read here when a file changed). */
  settings: ProjectSettingsResolver;
  /** The daemon's projects, whose versions rise with each applied change. */
  projects: Projects;
  sessions: SessionManager;
  clients: Set<ClientConnection>;
  /** Keeps the reloads and rejections for `daemon/health`. */
  healthLog: DaemonHealthLog;
  /** The user's config file as it is read (`--config FILE` or the default). */
  userConfigFile: string;
  /** Re-reads the user's file; throws ConfigError when it is invalid. */
  readUserLayer(): UserConfigLayer;
  log(line: string): void;
}

/** Told after the user's config changed and was applied. */
export type UserConfigListener = (config: AgentdConfig, previous: AgentdConfig) => void;
/** Told after a change was applied, with each live session it concerns and that session's new settings. */
export type SessionsConfigListener = (affected: Array<{ session: Session; settings: ProjectSettings }>) => void;

/** Sections read once at start-up: a change to them is logged, not applied (the folders a daemon serves are registered when it joins). */
const RESTART_ONLY: Array<keyof AgentdConfig> = ['server', 'cluster'];

/**
 * Applies configuration edits to a running daemon. Sessions take up their project's
 * project at each model request (see LiveProject); this raises a project's version
 * when any file it reads changed, re-reads the user's file (which the daemon
 * otherwise reads once), tells listeners (MCP servers, schedules), and reports the
 * outcome: `config_reloaded`, or for an invalid edit `config_rejected` plus a notice to
 * every client of each affected session naming the file, the JSON path and the problem,
 * while the last good configuration stays in force. It also keeps one watch per project
 * that has a live session.
 */
export class ConfigReloader {
  private readonly roots = new Map<string, string>();
  private readonly acquiring = new Set<Promise<void>>();
  private readonly userListeners: UserConfigListener[] = [];
  private readonly sessionListeners: SessionsConfigListener[] = [];
  private watching = false;
  private started: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConfigReloaderOptions) {
    options.sessions.observe({
      opened: (session) => this.opened(session),
      closed: (session) => this.closed(session),
    });
  }

  /** Starts watching the user's files, and from now on each live session's project. */
  async start(): Promise<void> {
    this.watching = true;
    for (const session of this.options.sessions.liveSessions()) this.opened(session);
    this.started = this.options.watcher.start();
    await this.started;
  }

  onUserConfig(listener: UserConfigListener): void {
    this.userListeners.push(listener);
  }

  onSessionsConfig(listener: SessionsConfigListener): void {
    this.sessionListeners.push(listener);
  }

  /** Resolves once the user's watch and every project watch asked for so far are in place. */
  async settled(): Promise<void> {
    await this.started;
    while (this.acquiring.size > 0) await Promise.all([...this.acquiring]);
  }

  /** The projects watched now. */
  watchedProjects(): string[] {
    return this.options.watcher.watchedProjects();
  }

  /** Applies one settled burst of changes (the watcher's callback). */
  apply(change: ConfigChange): void {
    if (change.scope === 'user') this.applyUser(change.files);
    else this.applyProject(change.root, change.files);
  }

  close(): Promise<void> {
    this.watching = false;
    return this.options.watcher.close();
  }

  private opened(session: Session): void {
    if (!this.watching || this.roots.has(session.id)) return;
    const root = session.project.root;
    this.roots.set(session.id, root);
    const acquired = this.options.watcher.acquire(root).catch((error: Error) => this.options.log(`cannot watch the configuration of ${root}: ${error.message}`));
    this.acquiring.add(acquired);
    void acquired.finally(() => this.acquiring.delete(acquired));
  }

  private closed(session: Session): void {
    const root = this.roots.get(session.id);
    if (root === undefined) return;
    this.roots.delete(session.id);
    void this.options.watcher.release(root).catch((error: Error) => this.options.log(`cannot stop watching ${root}: ${error.message}`));
  }

  private applyUser(files: string[]): void {
    const sessions = this.options.sessions.liveSessions();
    if (files.includes(this.options.userConfigFile)) {
      let layer: UserConfigLayer;
      try {
        layer = this.options.readUserLayer();
        const previous = this.options.settings.userConfig;
        this.options.settings.setUser(layer);
        const config = this.options.settings.userConfig;
        this.options.projects.replaceUserConfig(config);
        this.logRestartOnly(previous, config);
        for (const listener of this.userListeners) this.tell(() => listener(config, previous));
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        this.reject(this.options.userConfigFile, error, sessions);
        return;
      }
    }
    // AGENTS.md, skills or agents of the user apply to every project.
    this.options.projects.touch(undefined);
    const affected = sessions.flatMap((session) => {
      try {
        return [{ session, settings: this.options.settings.resolve(session.record.cwd) }];
      } catch {
        // Its project's file is broken: the session keeps its settings (resolve said why).
        return [];
      }
    });
    for (const listener of this.sessionListeners) this.tell(() => listener(affected));
    this.reloaded(files, sessions);
  }

  private applyProject(root: string, files: string[]): void {
    const sessions = this.options.sessions.liveSessions().filter((session) => this.roots.get(session.id) === root);
    let settings: ProjectSettings | undefined;
    try {
      const reloaded = this.options.settings.reload(root);
      if (reloaded.error) {
        this.reject(projectConfigFile(root), reloaded.error, sessions);
        return;
      }
      settings = reloaded.settings;
    } catch (error) {
      // No good settings to keep (the file was broken when the project was first seen).
      if (!(error instanceof ConfigError)) throw error;
      this.reject(projectConfigFile(root), error, sessions);
      return;
    }
    this.options.projects.touch(root);
    const affected = sessions.map((session) => ({ session, settings: settings! }));
    for (const listener of this.sessionListeners) this.tell(() => listener(affected));
    this.reloaded(files, sessions);
  }

  private reloaded(files: string[], sessions: Session[]): void {
    const sessionIds = sessions.map((session) => session.id);
    for (const file of files) this.rejected.delete(file);
    for (const file of files.filter(isNotDirectory)) {
      this.options.log(`applied the change to ${file}${sessionIds.length > 0 ? ` (${sessionIds.length} live session(s) take it up at their next model request)` : ''}`);
      this.announce({ type: 'config_reloaded', file, sessionIds });
    }
  }

  /** Config edits rejected and not fixed since, by file: the last good configuration still applies. */
  private readonly rejected = new Map<string, string>();

  /** Each rejected config file's problems, until a good edit of it applies. */
  standingProblems(): string[] {
    return [...this.rejected.values()];
  }

  private reject(file: string, error: ConfigError, sessions: Session[]): void {
    const sessionIds = sessions.map((session) => session.id);
    const problems = error.problems.length > 0 ? error.problems : [{ file, message: error.message }];
    const summary = `${problems.map(formatConfigProblem).join('\n')}\nkeeping the last good configuration until the file is fixed`;
    this.rejected.set(file, `configuration not applied: ${summary}`);
    this.options.log(summary);
    for (const problem of problems) {
      this.announce({
        type: 'config_rejected',
        file: problem.file,
        ...(problem.path !== undefined ? { path: problem.path } : {}),
        problem: problem.line === undefined ? problem.message : `line ${problem.line}, column ${problem.column ?? 1}: ${problem.message}`,
        sessionIds,
      });
    }
    for (const session of sessions) session.emit({ type: 'notice', level: 'warning', message: `configuration not applied: ${summary}` });
  }

  /** A reload or rejection: kept for the health report and sent to opted-in clients. */
  private announce(event: DaemonEvent): void {
    this.options.healthLog.daemonEvent(event);
    broadcastDaemonEvent(this.options.clients, event);
  }

  private logRestartOnly(previous: AgentdConfig, config: AgentdConfig): void {
    const changed = RESTART_ONLY.filter((key) => JSON.stringify(previous[key]) !== JSON.stringify(config[key]));
    if (changed.length > 0) this.options.log(`${changed.join(', ')} in ${this.options.userConfigFile} changed: this applies when the daemon next starts`);
  }

  /** A listener's failure is logged; the others still run. */
  private tell(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.options.log(`applying the configuration change failed: ${(error as Error).stack ?? String(error)}`);
    }
  }
}

function isNotDirectory(file: string): boolean {
  try {
    return !fs.statSync(file).isDirectory();
  } catch {
    // Deleted: a removed file is a change too.
    return true;
  }
}
