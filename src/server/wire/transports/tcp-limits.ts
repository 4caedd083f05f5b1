import type { AgentdConfig } from '../../../config/config-schema.js';

/** What an unauthenticated TCP peer may cost the daemon, and how many peers it serves. */
export interface TcpLimits {
  /** Largest frame before `initialize` with the token (64 KiB: an initialize is a few hundred bytes). */
  preAuthMaxFrameBytes: number;
  /** Output queued for an unauthenticated peer that does not read, before it is dropped. */
  preAuthMaxQueuedBytes: number;
  /** A connection that has not authenticated within this long is closed. */
  authTimeoutMs: number;
  /** Connections at once that have not authenticated yet; more are refused. */
  maxUnauthenticatedConnections: number;
  /** TCP connections at once, authenticated or not; more are refused. */
  maxConnections: number;
}

export const DEFAULT_TCP_LIMITS: TcpLimits = {
  preAuthMaxFrameBytes: 64 * 1024,
  preAuthMaxQueuedBytes: 1024 * 1024,
  authTimeoutMs: 10_000,
  maxUnauthenticatedConnections: 16,
  maxConnections: 64,
};

/** The limits with `server.*` from config.json applied over the defaults. */
export function tcpLimitsFromConfig(config: AgentdConfig): TcpLimits {
  const server = config.server ?? {};
  return {
    ...DEFAULT_TCP_LIMITS,
    ...(server.authTimeoutMs !== undefined ? { authTimeoutMs: server.authTimeoutMs } : {}),
    ...(server.maxUnauthenticatedConnections !== undefined ? { maxUnauthenticatedConnections: server.maxUnauthenticatedConnections } : {}),
    ...(server.maxConnections !== undefined ? { maxConnections: server.maxConnections } : {}),
  };
}
