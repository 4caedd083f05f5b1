import type { ApiKeySource } from '../../config/resolve-api-key.js';
import type { LanguageModel } from '../language-model.js';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';

/** Where a provider's settings came from, as the registry resolved them: what a failure's hint names. */
export interface ProviderSetup {
  provider: string;
  modelId: string;
  baseUrl: string;
  /** Where the base URL came from, e.g. `providers.local.baseUrl in config.json` or `the OPENAI_BASE_URL environment variable`. */
  baseUrlFrom: string;
  /** Where the key came from; undefined when none was sent. */
  keySource: ApiKeySource | undefined;
  /** The variables that would have been read for a key, to name when none was set. */
  keyVariables: readonly string[];
  /** The model names its own credential in auth failures (Vertex's Application Default Credentials): no API-key hint. */
  ownCredentials?: boolean;
}

/** Transport codes that mean nothing answers at that address: the base URL (or the server) is the thing to check. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/**
 * What to check after a failure that the provider's settings explain: the key and where it
 * came from for 401/403, the base URL and where it came from when nothing answers there,
 * `agentd models` for an unknown model. Undefined for failures the settings do not explain.
 */
export function setupHint(error: ProviderError, setup: ProviderSetup): string | undefined {
  const { provider } = setup;
  const baseUrl = `${setup.baseUrl} (from ${setup.baseUrlFrom})`;
  if (error.kind === 'auth') {
    if (setup.ownCredentials === true) return undefined;
    const source = setup.keySource;
    if (source === undefined) {
      return `no API key was sent: set ${setup.keyVariables.join(' or ')}, or providers.${provider}.apiKeyEnv or apiKey in config.json`;
    }
    const from = source.kind === 'env' ? `the ${source.variable} environment variable` : `providers.${provider}.apiKey in config.json`;
    return `the API key came from ${from}: check that it is a valid key for ${baseUrl}${error.status === 403 ? ' with access to this model' : ''}`;
  }
  if (error.kind === 'network' && error.code !== undefined && unreachableCodes.has(error.code)) {
    return `nothing answered at ${baseUrl}: check the base URL and that the server is running`;
  }
  if (error.kind === 'not_found') {
    return `check the model id "${setup.modelId}" (agentd models --provider ${provider} lists the known ones) and the base URL ${baseUrl}`;
  }
  return undefined;
}

/** The model, with a failure its settings explain ending in what to check (see setupHint). */
export function withSetupHints(model: LanguageModel, setup: ProviderSetup): LanguageModel {
  return {
    provider: model.provider,
    modelId: model.modelId,
    protocol: model.protocol,
    ...(model.prepare ? { prepare: () => model.prepare?.() } : {}),
    async *stream(request, signal): AsyncGenerator<StreamEvent> {
      for await (const event of model.stream(request, signal)) {
        const hint = event.type === 'error' ? setupHint(event.error, setup) : undefined;
        yield event.type === 'error' && hint !== undefined ? { type: 'error', error: withHint(event.error, hint) } : event;
      }
    },
  };
}

function withHint(error: ProviderError, hint: string): ProviderError {
  return new ProviderError({
    kind: error.kind,
    message: `${error.message} — ${hint}`,
    provider: error.provider,
    model: error.model,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    midStream: error.midStream,
    code: error.code,
  });
}
