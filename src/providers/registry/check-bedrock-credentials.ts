import { checkAwsCredentials } from '../bedrock/check-aws-credentials.js';
import type { AwsIdentity } from '../bedrock/resolve-aws-credentials.js';

/** The two ProviderModelList answers a bedrock provider gives (spelled out here: list-provider-models imports this file). */
type BedrockReach = { kind: 'failed'; protocol: 'bedrock'; url: string; message: string } | { kind: 'not-listed'; protocol: 'bedrock'; reason: string };

/**
 * A bedrock provider's reach check for `agentd doctor`: Bedrock's model list lives on its
 * control plane and needs a permission agents rarely have, so the credentials are checked
 * with AWS STS instead (no tokens spent); a rejection says 403 so doctor fails it.
 */
export async function checkBedrockCredentials(provider: string, identity: () => AwsIdentity, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<BedrockReach> {
  let resolved: AwsIdentity;
  try {
    resolved = identity();
  } catch (error) {
    return { kind: 'failed', protocol: 'bedrock', url: '(none)', message: error instanceof Error ? error.message : String(error) };
  }
  const check = await checkAwsCredentials(provider, resolved, env, timeoutMs);
  if (check.kind === 'accepted') return { kind: 'not-listed', protocol: 'bedrock', reason: `AWS STS accepted the credentials${check.account !== undefined ? ` (account ${check.account})` : ''}; model access shows on the first request` };
  if (check.kind === 'not-checked') return { kind: 'not-listed', protocol: 'bedrock', reason: check.reason };
  return { kind: 'failed', protocol: 'bedrock', url: check.url, message: check.message };
}
