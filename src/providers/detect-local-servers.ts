import { z } from 'zod';
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

/** `{ data: [{ id }] }` of `GET /models`; entries without a string id are left out. */
const modelListSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string().optional().catch(undefined) })).optional().transform((data) => data ?? []),
});

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
        const listed = modelListSchema.safeParse(await response.body.json());
        if (!listed.success) return undefined;
        return { ...candidate, models: listed.data.data.flatMap((model) => (model.id !== undefined ? [model.id] : [])) };
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((s): s is LocalServer => s !== undefined);
}
