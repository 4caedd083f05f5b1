import { z } from 'zod';
import { ANTHROPIC_VERSION } from '../anthropic-messages/anthropic-messages-model.js';
import { COPILOT_CLIENT_HEADERS } from '../copilot/copilot-endpoints.js';
import { copilotTokenSource } from '../copilot/copilot-token-source.js';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { loadUndici } from '../http/load-undici.js';
import { networkError } from '../http/network-error.js';
import { ProviderError } from '../provider-error.js';
import { checkVertexCredentials } from '../vertex/check-vertex-credentials.js';
import { checkBedrockCredentials } from './check-bedrock-credentials.js';
import type { LanguageModelSpec } from './create-language-model.js';
import { setupHint, type ProviderSetup } from './with-setup-hints.js';

/** What a provider's model list said: the ids it offers, or why it could not be read (with what to check). */
export type ProviderModelList =
  | { kind: 'ok'; protocol: string; url: string; models: string[] }
  | { kind: 'failed'; protocol: string; url: string; message: string }
  /** The wire has no list endpoint agentd calls (Azure lists deployments per resource). */
  | { kind: 'not-listed'; protocol: string; reason: string };

/**
 * The list endpoint of each wire, free of charge (no tokens): OpenAI and compatible
 * servers `GET {base}/models` (https://platform.openai.com/docs/api-reference/models/list),
 * Anthropic `GET /v1/models` (https://docs.anthropic.com/en/api/models-list), Gemini
 * `GET /v1beta/models` (https://ai.google.dev/api/models#method:-models.list), Cohere
 * `GET /v1/models?endpoint=chat`. Auth goes
 * in the same header the model class sends.
 */
async function listRequest(spec: LanguageModelSpec, timeoutMs: number): Promise<{ url: string; headers: Record<string, string> }> {
  if (spec.protocol === 'copilot') return copilotListRequest(spec, timeoutMs);
  const base = spec.baseUrl.replace(/\/+$/, '');
  const key = spec.apiKey;
  if (spec.protocol === 'anthropic-messages') {
    return { url: `${base}/v1/models`, headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}), ...spec.headers } };
  }
  // https://docs.cohere.com/reference/list-models answers `{models:[{name}]}`.
  if (spec.protocol === 'cohere') return { url: `${base}/v1/models?endpoint=chat`, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...spec.headers } };
  if (spec.protocol === 'gemini') return { url: `${base}/v1beta/models`, headers: { ...(key ? { 'x-goog-api-key': key } : {}), ...spec.headers } };
  return { url: `${base}/models`, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...spec.headers } };
}

/**
 * Copilot lists the models of the seat at `<endpoints.api>/models` with the Copilot token
 * (see src/providers/copilot/copilot-endpoints.ts); the exchange comes first.
 */
async function copilotListRequest(spec: LanguageModelSpec, timeoutMs: number): Promise<{ url: string; headers: Record<string, string> }> {
  const token = await copilotTokenSource(spec.copilotLoginFile ?? '', spec.provider).token(spec.modelId, AbortSignal.timeout(timeoutMs));
  const base = (token.apiUrl ?? spec.baseUrl).replace(/\/+$/, '');
  return { url: `${base}/models`, headers: { ...COPILOT_CLIENT_HEADERS, ...spec.headers, authorization: `Bearer ${token.token}` } };
}

/** `{data:[{id}]}` (OpenAI, Anthropic, compatible servers) or `{models:[{name:"models/…"}]}` (Gemini). */
const listSchema = z.looseObject({
  /** Copilot's entries carry `capabilities.type` ("chat", "embeddings"); only chat models can answer a turn. */
  data: z.array(z.looseObject({ id: z.string(), capabilities: z.looseObject({ type: z.string().optional() }).optional().catch(undefined) })).optional().catch(undefined),
  models: z.array(z.looseObject({ name: z.string() })).optional().catch(undefined),
});

/** Ask the provider which models it offers; never throws. */
export async function listProviderModels(spec: LanguageModelSpec, setup: ProviderSetup, timeoutMs: number): Promise<ProviderModelList> {
  const protocol = spec.protocol;
  if (spec.vertex !== undefined) {
    const { tokens, project, location } = spec.vertex;
    const failure = await checkVertexCredentials(tokens, timeoutMs);
    if (failure !== undefined) return { kind: 'failed', protocol, url: spec.baseUrl, message: failure };
    return { kind: 'not-listed', protocol, reason: `an access token from ${tokens.credentials.origin} for project ${project}, location ${location}; Vertex AI offers models per project in Model Garden, not listed` };
  }
  if (spec.azure !== undefined) return { kind: 'not-listed', protocol, reason: 'Azure OpenAI lists deployments per resource; not probed' };
  if (spec.bedrock !== undefined) return checkBedrockCredentials(spec.provider, spec.bedrock.identity, spec.bedrock.env, timeoutMs);
  let url: string;
  let headers: Record<string, string>;
  try {
    ({ url, headers } = await listRequest(spec, timeoutMs));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', protocol, url: spec.baseUrl, message };
  }
  const failed = (error: ProviderError): ProviderModelList => {
    const hint = spec.protocol === 'copilot' ? undefined : setupHint(error, setup);
    const message = hint === undefined ? error.message : `${error.message} — ${hint}`;
    return { kind: 'failed', protocol, url, message: spec.apiKey ? message.split(spec.apiKey).join('[redacted]') : message };
  };
  const { request } = await loadUndici();
  try {
    const response = await request(url, { headers, signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const text = await response.body.text();
    const status = response.statusCode;
    if (status < 200 || status > 299) {
      const kind = kindFromHttpStatus(status);
      return failed(new ProviderError({ provider: spec.provider, model: spec.modelId, kind, status, message: `${spec.provider}: GET ${url} answered ${status}: ${text.trim().slice(0, 300) || '(empty body)'}` }));
    }
    const parsed = listSchema.safeParse(safeJson(text));
    const ids = parsed.success ? [...(parsed.data.data ?? []).filter((m) => (m.capabilities?.type ?? 'chat') === 'chat').map((m) => m.id), ...(parsed.data.models ?? []).map((m) => m.name.replace(/^models\//, ''))] : undefined;
    if (ids === undefined) return { kind: 'failed', protocol, url, message: `${spec.provider}: GET ${url} answered something that is not a model list; check the base URL` };
    return { kind: 'ok', protocol, url, models: ids.sort() };
  } catch (error) {
    if ((error as { name?: unknown }).name === 'TimeoutError') {
      return failed(new ProviderError({ provider: spec.provider, model: spec.modelId, kind: 'network', code: 'ETIMEDOUT', message: `${spec.provider}: no answer from ${url} within ${timeoutMs} ms` }));
    }
    const signal = new AbortController().signal;
    return failed(networkError(error, { provider: spec.provider, model: spec.modelId, url, signal, connectMs: timeoutMs, firstByteMs: timeoutMs }));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
