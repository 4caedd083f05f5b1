import type { ProviderConfig } from '../../config/provider-config-schema.js';
import { resolveAwsCredentials, type AwsIdentity } from '../bedrock/resolve-aws-credentials.js';
import type { LanguageModelSpec } from './create-language-model.js';
import type { ProviderSetup } from './with-setup-hints.js';

/**
 * The spec of a `bedrock` provider: credentials and region as the AWS tools find them
 * (resolveAwsCredentials), checked now so a missing credential is one clear line at
 * resolve time, and read again for each request. The endpoint is the region's
 * bedrock-runtime (https://docs.aws.amazon.com/general/latest/gr/bedrock.html) unless
 * `baseUrl` names another (a VPC endpoint, a proxy).
 */
export function bedrockSpec(id: string, modelId: string, config: ProviderConfig | undefined, env: NodeJS.ProcessEnv): LanguageModelSpec & { setup: ProviderSetup } {
  const settings = { ...(config?.region !== undefined ? { region: config.region } : {}), ...(config?.profile !== undefined ? { profile: config.profile } : {}) };
  const identity = (): AwsIdentity => resolveAwsCredentials(id, settings, env);
  const { region, credentials } = identity();
  const baseUrl = config?.baseUrl ?? `https://bedrock-runtime.${region}.amazonaws.com`;
  return {
    setup: {
      provider: id,
      modelId,
      baseUrl,
      baseUrlFrom: config?.baseUrl !== undefined ? `providers.${id}.baseUrl in config.json` : `the region ${region}`,
      keySource: undefined,
      keyVariables: [credentials.from],
    },
    protocol: 'bedrock',
    provider: id,
    modelId,
    baseUrl,
    headers: config?.headers,
    timeouts: config?.timeouts,
    maxResponseBytes: config?.maxResponseBytes,
    bedrock: { identity, env },
  };
}
