import { DEFAULT_MAX_FRAME_BYTES } from '../config/config-schema.js';
import type { ClientConnection } from '../server/wire/client-connection.js';
import type { DaemonContext } from '../server/daemon-context.js';
import type { DaemonShell } from '../server/daemon-shell.js';
import { createDashboardService } from '../server/http/create-dashboard-service.js';
import { tcpLimitsFromConfig } from '../server/wire/transports/tcp-limits.js';
import type { DaemonSettings } from './load-daemon-settings.js';
import type { StartedDaemon } from './start-daemon.js';

/**
 * The shell `agentd serve` answers with at once; the daemon proper (store, sessions,
 * providers, tools) is imported and built on first need. A failure to build it (an
 * unreadable store, say) is fatal: it is logged and the process exits.
 */
export interface ShellOptions {
  /** `agentd serve --http-any-host`: the dashboard may be served on a host that is not loopback. */
  httpAnyHost?: boolean;
  /** Where the page's files are; `dist/web/` of the package by default (tests give their own). */
  webRoot?: string;
  /** The clock login tokens and browser sessions expire by (tests move it). */
  now?: () => number;
}

export function createDaemonShell(settings: DaemonSettings, options: ShellOptions = {}): DaemonShell & { shutdown(): Promise<void> } {
  const clients = new Set<ClientConnection>();
  let building: Promise<StartedDaemon> | undefined;
  let stopping: Promise<void> | undefined;
  let daemon: DaemonContext | undefined;
  const build = (): Promise<StartedDaemon> => {
    // Asked for after shutdown (the build kicked after `initialize` runs a tick later than
    // an input that ended at once): building now would open the store without its lock
    // and start watchers nobody stops, keeping the process alive.
    if (stopping && !building) return Promise.reject(new Error('the daemon is shutting down'));
    building ??= import('./start-daemon.js')
      .then(({ buildDaemon }) => buildDaemon(settings, clients))
      .then((started) => {
        daemon = started.daemon;
        return started;
      })
      .catch((error: Error) => {
        settings.log(`cannot start: ${error.message}`);
        process.exit(1);
      });
    return building;
  };
  const shell: DaemonShell & { shutdown(): Promise<void> } = {
    version: settings.options.version,
    maxFrameBytes: settings.config.server?.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    clients,
    log: settings.log,
    context: async (): Promise<DaemonContext> => (await build()).daemon,
    built: () => daemon,
    shutdown() {
      // Once: a signal and the end of stdin may both ask.
      stopping ??= (async () => {
        // Connected clients are told by their connection closing, before the store goes.
        for (const client of clients) client.rpc.close();
        await shell.dashboard?.close();
        if (building) await (await building).shutdown();
        else settings.options.lock?.release();
      })();
      return stopping;
    },
  };
  const configured = settings.config.server?.http;
  shell.dashboard = createDashboardService(shell, {
    anyHost: options.httpAnyHost ?? false,
    limits: tcpLimitsFromConfig(settings.config),
    ...(configured !== undefined ? { configured } : {}),
    ...(options.webRoot !== undefined ? { webRoot: options.webRoot } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  return shell;
}
