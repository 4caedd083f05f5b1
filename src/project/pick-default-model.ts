import type { AgentdConfig } from '../config/config-schema.js';

/**
 * The model a session uses unless it picks one: `model` from config, else the only
 * model listed by the only configured provider, else — with just `OPENAI_BASE_URL`
 * set — whatever `OPENAI_MODEL` names on it. Undefined means nothing is configured.
 */
export function pickDefaultModel(config: AgentdConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (config.model) return config.model;
  const providers = Object.entries(config.providers ?? {});
  if (providers.length === 1) {
    const [id, provider] = providers[0]!;
    const models = Object.keys(provider.models ?? {});
    if (models.length === 1) return `${id}/${models[0]}`;
  }
  if (env.OPENAI_BASE_URL && env.OPENAI_MODEL) return `openai/${env.OPENAI_MODEL}`;
  return undefined;
}
