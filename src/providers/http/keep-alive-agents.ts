import type http from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { nodeHttp, nodeHttps } from './node-http-client.js';

/** How long an opened connection waits for its first request before it is closed (as long as an idle pooled one). */
const WARM_IDLE_MS = 30_000;

interface OriginPool {
  agent: http.Agent;
  /** A connection opened ahead of the first request, sent nothing yet. */
  warm: Duplex | undefined;
  /** Opens a connection the way the agent would for a request. */
  open: (options: http.ClientRequestArgs) => Duplex;
}

/** Keep-alive pools per origin, shared by every model talking to it (warm connections between turns). */
const pools = new Map<string, OriginPool>();

/** The keep-alive agent of a URL's origin; its first new connection is the preconnected one, when there is one. */
export function agentFor(url: URL): http.Agent {
  return poolFor(url).agent;
}

/**
 * Opens a connection (TCP, and TLS for https) to the URL's origin and keeps it for the next
 * request there, sending nothing: the first model request of a session then finds it
 * connected. Does nothing when the origin has a warm or idle pooled connection already.
 * Never throws and never keeps the process alive; a connection that fails or is closed is
 * simply forgotten (the request then connects as usual).
 */
export function preconnect(address: string): void {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  const pool = poolFor(url);
  if (pool.warm !== undefined || Object.keys(pool.agent.freeSockets).length > 0) return;
  const target = urlToHttpOptions(url);
  const host = target.hostname ?? 'localhost';
  const options: http.ClientRequestArgs & { servername?: string } = { host, port: target.port ?? (url.protocol === 'https:' ? 443 : 80) };
  // TLS names the server as Node's agent would for a request (never an IP address).
  if (url.protocol === 'https:' && isIP(host) === 0) options.servername = host;
  let socket: Duplex;
  try {
    socket = pool.open(options);
  } catch {
    return;
  }
  pool.warm = socket;
  const timer = setTimeout(() => socket.destroy(), WARM_IDLE_MS);
  timer.unref();
  const onError = (): void => void socket.destroy();
  const onEnd = (): void => void socket.destroy();
  const forget = (): void => {
    clearTimeout(timer);
    socket.off('error', onError).off('end', onEnd).off('close', forget).off(TAKEN, forget);
    if (pool.warm === socket) pool.warm = undefined;
  };
  socket.on('error', onError).once('end', onEnd).once('close', forget);
  // Handed to a request, which owns it from then on (its errors are the request's).
  socket.once(TAKEN, forget);
  unref(socket);
}

/** Emitted on a preconnected socket as a request takes it. */
const TAKEN = 'agentd:taken';

function poolFor(url: URL): OriginPool {
  let pool = pools.get(url.origin);
  if (pool) return pool;
  const settings = { keepAlive: true, keepAliveMsecs: 1_000, timeout: 30_000 };
  const agent = url.protocol === 'https:' ? new (nodeHttps().Agent)(settings) : new (nodeHttp().Agent)(settings);
  const createConnection = agent.createConnection.bind(agent) as (options: http.ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void) => Duplex;
  const created: OriginPool = {
    agent,
    warm: undefined,
    // The agent's own options (keep-alive) as it adds them for a request.
    open: (options) => createConnection({ ...options, ...settings }),
  };
  agent.createConnection = (options, callback) => {
    const warm = created.warm;
    if (warm !== undefined && !warm.destroyed && warm.writable) {
      created.warm = undefined;
      warm.emit(TAKEN);
      ref(warm);
      return warm;
    }
    return createConnection(options, callback);
  };
  pools.set(url.origin, created);
  return created;
}

function unref(socket: Duplex): void {
  (socket as Duplex & { unref?: () => void }).unref?.();
}

function ref(socket: Duplex): void {
  (socket as Duplex & { ref?: () => void }).ref?.();
}
