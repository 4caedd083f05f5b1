import { ACP_PROTOCOL_VERSION, AGENTD_PROTOCOL_VERSION, methodTable } from '../../../protocol/index.js';
import type { InitializeRequest, InitializeResponse } from '../../../protocol/index.js';
import type { ClientConnection } from '../wire/client-connection.js';
import type { DaemonShell } from '../daemon-shell.js';

/**
 * Extension features actually served: those with a handled agentd method, plus the
 * daemon-side ones (events, cancellation) that need no handler.
 */
function servedFeatures(servedMethods: ReadonlySet<string>): string[] {
  const served = new Set<string>(['events', 'cancellation']);
  for (const d of methodTable) {
    if (!d.acp && d.direction === 'client-to-daemon' && servedMethods.has(d.method)) served.add(d.feature);
  }
  return [...served].sort();
}

/**
 * Negotiates capabilities both ways; agentd's own ride in `_meta.agentd`. It needs only
 * the daemon shell, so it answers while the rest of the daemon is still loading.
 */
export function initialize(
  params: InitializeRequest,
  { client, shell, servedMethods }: { client: ClientConnection; shell: DaemonShell; servedMethods: ReadonlySet<string> },
): InitializeResponse {
  client.initialized = true;
  client.clientCapabilities = (params.clientCapabilities ?? {}) as Record<string, unknown>;
  // Checked by the params schema (strict): anything but a boolean was refused before here.
  client.wantsEvents = params._meta?.agentd?.events === true;
  return {
    protocolVersion: ACP_PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {}, delete: {}, resume: {}, close: {}, additionalDirectories: {} },
    },
    authMethods: [],
    agentInfo: { name: 'agentd', version: shell.version },
    _meta: {
      agentd: {
        version: shell.version,
        protocolVersion: AGENTD_PROTOCOL_VERSION,
        ...(shell.socketPath ? { socket: shell.socketPath } : {}),
        features: servedFeatures(servedMethods),
      },
    },
  };
}
