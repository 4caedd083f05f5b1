import type { ProviderConfig } from '../../config/config-schema.js';
import { resolveAwsCredentials } from '../../providers/bedrock/resolve-aws-credentials.js';

/**
 * What doctor shows for a `bedrock` provider: its endpoint, region and where its AWS
 * credentials come from (never the keys). When none are found the provider fails its check
 * with the resolver's own line, so this only says so.
 */
export function describeBedrockProvider(id: string, provider: ProviderConfig, env: NodeJS.ProcessEnv): string {
  try {
    const { region, credentials } = resolveAwsCredentials(id, { ...(provider.region !== undefined ? { region: provider.region } : {}), ...(provider.profile !== undefined ? { profile: provider.profile } : {}) }, env);
    const endpoint = provider.baseUrl?.replace(/^(https?:\/\/)[^@/]*@/i, '$1') ?? `https://bedrock-runtime.${region}.amazonaws.com`;
    const kind = credentials.kind === 'bearer' ? 'Bedrock API key' : credentials.sessionToken !== undefined ? 'temporary AWS keys' : 'AWS keys';
    return `bedrock at ${endpoint} (region ${region}); ${kind} from ${credentials.from}`;
  } catch {
    return 'bedrock; no AWS credentials or region found';
  }
}
