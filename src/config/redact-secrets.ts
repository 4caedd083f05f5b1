import type { AgentdConfig } from './config-schema.js';

/** Shorter strings are too likely to be ordinary words or numbers to replace blindly. */
export const MIN_SECRET_LENGTH = 8;

const REDACTED = '[redacted]';
const SECRET_VARIABLE = /(_API_KEY|_TOKEN|_SECRET)$/;
const SECRET_HEADER = /auth|key|token|secret|cookie/i;

/**
 * Replaces every occurrence of each secret (of at least MIN_SECRET_LENGTH characters)
 * with `[redacted]`. Longer secrets go first, so a key that contains another key is
 * replaced whole rather than leaving its tail visible.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const usable = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of usable) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Every secret agentd knows of, for redactSecrets: configured API keys, credential-like
 * headers of providers and MCP servers, variables named by `apiKeyEnv`, and every
 * environment variable whose name ends in `_API_KEY`, `_TOKEN` or `_SECRET`.
 */
export function collectSecrets(config: AgentdConfig, env: NodeJS.ProcessEnv): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined): void => {
    const trimmed = value?.trim();
    if (trimmed !== undefined && trimmed.length >= MIN_SECRET_LENGTH) secrets.add(trimmed);
  };
  const addHeaders = (headers: Record<string, string> | undefined): void => {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (!SECRET_HEADER.test(name)) continue;
      add(value);
      // `Bearer sk-…`: the token alone may also show up, e.g. in a vendor's error echo.
      add(/^(?:bearer|basic|token)\s+(.+)$/i.exec(value)?.[1]);
    }
  };

  for (const provider of Object.values(config.providers ?? {})) {
    add(provider.apiKey);
    if (provider.apiKeyEnv !== undefined) add(env[provider.apiKeyEnv]);
    addHeaders(provider.headers);
  }
  for (const server of Object.values(config.mcpServers ?? {})) {
    if ('url' in server) {
      addHeaders(server.headers);
      continue;
    }
    for (const [name, value] of Object.entries(server.env ?? {})) {
      if (SECRET_VARIABLE.test(name)) add(value);
    }
  }
  for (const [name, value] of Object.entries(env)) {
    if (SECRET_VARIABLE.test(name)) add(value);
  }
  // The store's password, should a driver's message ever quote its URL.
  for (const url of [config.store?.type === 'postgres' ? config.store.url : undefined, env.AGENTD_STORE_URL]) {
    add(url);
    add(passwordOf(url));
  }
  return [...secrets];
}

function passwordOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
