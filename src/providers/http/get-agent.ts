import type { Agent } from 'undici';
import { loadUndici } from './load-undici.js';

/**
 * One keep-alive connection pool per origin (and connect timeout), shared by every
 * model talking to it, so successive turns reuse warm TLS connections instead of
 * paying a handshake each time.
 */
const agents = new Map<string, Agent>();

/** The shared undici Agent for `origin` with the given connect timeout. */
export async function getAgent(origin: string, connectMs: number): Promise<Agent> {
  const key = `${origin}|${connectMs}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const { Agent } = await loadUndici();
    // Another request may have created it while undici loaded.
    agent = agents.get(key);
    if (agent) return agent;
    agent = new Agent({
      connect: { timeout: connectMs },
      // Servers close idle keep-alive sockets on their own schedule; undici honours their
      // `keep-alive: timeout=` hint, and this caps how long an unhinted socket is kept.
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
    });
    agents.set(key, agent);
  }
  return agent;
}
