import { loadUndici } from './http/load-undici.js';

/** A local OpenAI-compatible server found on its default port. */
export interface LocalServer {
  name: string;
  /** Preset id to use in `provider/model`. */
  provider: string;
  baseUrl: string;
  models: string[];
}

/** Default ports from each server's documentation. */
const CANDIDATES = [
  { name: 'Ollama', provider: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', provider: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1' },
];

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
