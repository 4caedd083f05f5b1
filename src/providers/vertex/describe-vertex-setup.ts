import type { ProviderConfig } from '../../config/provider-config-schema.js';
import { resolveVertexSettings } from './resolve-vertex-settings.js';

/** A Vertex provider's setup in one line for `agentd doctor`: endpoint, project, location and credential (never a secret). */
export function describeVertexSetup(id: string, config: ProviderConfig | undefined, env: NodeJS.ProcessEnv): string {
  try {
    const settings = resolveVertexSettings(id, config, env);
    return `vertex at ${settings.baseUrl}; project ${settings.project}, location ${settings.location}; credentials: ${settings.credentials.origin}`;
  } catch (error) {
    return `vertex: ${error instanceof Error ? error.message : String(error)}`;
  }
}
