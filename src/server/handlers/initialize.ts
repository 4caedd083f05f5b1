import type { RequestHandler } from '../handler-table.js';

/** ACP protocol version this daemon speaks. */
export const ACP_PROTOCOL_VERSION = 1;
/** Version of agentd's own extensions (`_meta.agentd`, extra methods). */
export const AGENTD_PROTOCOL_VERSION = 1;

/** Negotiates capabilities both ways; agentd's own ride in `_meta.agentd`. */
export const initialize: RequestHandler<'initialize'> = (params, { client, daemon }) => {
  client.initialized = true;
  client.clientCapabilities = (params.clientCapabilities ?? {}) as Record<string, unknown>;
  const agentdMeta = (params._meta as { agentd?: { events?: unknown } } | null | undefined)?.agentd;
  client.wantsEvents = agentdMeta?.events === true;
  return {
    protocolVersion: ACP_PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: false, sse: false },
      sessionCapabilities: { list: {}, delete: {}, resume: {}, close: {} },
    },
    authMethods: [],
    agentInfo: { name: 'agentd', version: daemon.version },
    _meta: {
      agentd: {
        version: daemon.version,
        protocolVersion: AGENTD_PROTOCOL_VERSION,
        ...(daemon.socketPath ? { socket: daemon.socketPath } : {}),
        features: ['prompt.delivery', 'session.abort', 'events', 'content-length-framing'],
      },
    },
  };
};
