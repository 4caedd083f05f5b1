import type { ResultOf } from '../../../protocol/index.js';
import { findPreset } from '../../providers/registry/presets.js';
import { displayBaseUrl, keyFacts, providersInUse } from '../../providers/registry/provider-setup-facts.js';
import { describeSandbox, detectSandbox } from '../../tools/sandbox/detect-sandbox.js';
import type { DaemonContext } from '../daemon-context.js';
import type { RequestHandler } from '../handler-table.js';

/**
 * The daemon's health at a glance: each scope's providers (the user's, then each trusted
 * project's own) with where their keys come from and their breakers, and what the health
 * log kept: incidents, MCP servers, configuration edits; and the sandbox.
 */
export const daemonHealth: RequestHandler<'daemon/health'> = async (_params, { daemon }) => {
  const [sandbox, probe] = await Promise.all([daemon.sandbox, detectSandbox()]);
  return {
    providers: providers(daemon),
    recent: daemon.healthLog.recentIncidents(),
    mcpServers: daemon.healthLog.mcpServers(),
    sandbox: {
      kind: sandbox.mode,
      available: probe.mode === 'bubblewrap',
      hidden: [...new Set(daemon.sandboxPolicy.hidden.map((entry) => entry.path))],
      detail: describeSandbox(sandbox),
    },
    config: daemon.healthLog.recentConfigChanges(),
  };
};

function providers(daemon: DaemonContext): ResultOf<'daemon/health'>['providers'] {
  return daemon.providerScopes().flatMap(({ project, config, registry }) =>
    providersInUse(config, daemon.env).map((id) => {
      const type = config.providers?.[id]?.type ?? findPreset(id)?.protocol ?? 'unknown';
      // Vertex and Bedrock sign with their own credentials: no key, usable when the registry can resolve them.
      const ownCredentials = type === 'vertex' || type === 'bedrock';
      const key = ownCredentials ? { source: 'not_needed' as const } : keyFacts(id, config, daemon.env);
      const breaker = registry.breakerState(id);
      return {
        id,
        type,
        project,
        hasKey: key.source === 'not_needed' ? registry.isConfigured(id) : key.source !== 'none',
        keySource: key.source,
        baseUrl: displayBaseUrl(id, config, daemon.env)?.url ?? null,
        breaker: {
          state: breaker.state,
          consecutiveFailures: breaker.consecutiveFailures,
          openedAt: breaker.openedAt === undefined ? null : new Date(breaker.openedAt).toISOString(),
        },
      };
    }),
  );
}
