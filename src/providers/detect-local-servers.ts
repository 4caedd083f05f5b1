import { loadUndici } from './http/load-undici.js';
import { findPreset } from './registry/presets.js';

/** A local OpenAI-compatible server found on its default port. */
export interface LocalServer {
  name: string;
  /** Preset id to use in `provider/model`. */
  provider: string;
  baseUrl: string;
  models: string[];
}

/** Their default addresses, from the presets (each server's documented default port). */
const CANDIDATES = [
  { name: 'Ollama', provider: 'ollama' },
  { name: 'LM Studio', provider: 'lmstudio' },
].map((server) => ({ ...server, baseUrl: findPreset(server.provider)!.baseUrl }));

/**
 * Asks each local server's `GET /models` (OpenAI-compatible) with a short timeout, so
 * a machine with nothing running answers well within a second.
 */
export async function detectLocalServers(timeoutMs = 400, candidates = CANDIDATES): Promise<LocalServer[]> {
  const { request } = await loadUndici();
  const found = await Promise.all(
    candidates.map(async (candidate) => {
      try {
        const response = await request(`${candidate.baseUrl}/models`, {
          signal: AbortSignal.timeout(timeoutMs),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        if (response.statusCode !== 200) {
          await response.body.dump();
          return undefined;
        }
        const body = (await response.body.json()) as { data?: Array<{ id?: unknown }> };
        const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
        return { ...candidate, models };
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((s): s is LocalServer => s !== undefined);
}
