import { z } from 'zod';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';

/** Who failed and where, for the messages. */
export interface BedrockErrorContext {
  provider: string;
  model: string;
  region: string;
  /** Where the credentials came from (e.g. `the AWS_ACCESS_KEY_ID environment variable`). */
  credentialsFrom: string;
}

/**
 * Exception names → kind, from the ConverseStream reference's "Errors" and its stream
 * exceptions (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html)
 * and the common errors every AWS service returns (https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html).
 * Matched case-insensitively: HTTP answers name them `ThrottlingException`, stream frames `throttlingException`.
 */
const KIND_BY_NAME: Record<string, ProviderErrorKind> = {
  throttlingexception: 'rate_limit',
  modelnotreadyexception: 'overloaded',
  serviceunavailableexception: 'overloaded',
  internalserverexception: 'server',
  modelstreamerrorexception: 'server',
  modelerrorexception: 'server',
  modeltimeoutexception: 'timeout',
  validationexception: 'bad_request',
  resourcenotfoundexception: 'not_found',
  accessdeniedexception: 'auth',
  unrecognizedclientexception: 'auth',
  invalidsignatureexception: 'auth',
  expiredtokenexception: 'auth',
  incompletesignature: 'auth',
  missingauthenticationtokenexception: 'auth',
  servicequotaexceededexception: 'quota',
};

/** How Bedrock words a prompt that does not fit (ValidationException texts seen for Claude, Llama and Nova). */
const CONTEXT_OVERFLOW = /input is too long|too many (input )?tokens|prompt is too long|exceeds? (the )?(maximum )?context|context window/i;

/** A failure named by its exception (`ThrottlingException`) with AWS's message, as a ProviderError. */
export function bedrockError(context: BedrockErrorContext, name: string | undefined, vendorMessage: string, options: { status?: number; midStream?: boolean }): ProviderError {
  const lower = name?.toLowerCase();
  let kind = (lower !== undefined ? KIND_BY_NAME[lower] : undefined) ?? kindFromHttpStatus(options.status);
  if (kind === 'bad_request' && CONTEXT_OVERFLOW.test(vendorMessage)) kind = 'context_overflow';
  return new ProviderError({
    kind,
    message: describe(context, lower, name, vendorMessage, options.status),
    provider: context.provider,
    model: context.model,
    ...(options.status !== undefined ? { status: options.status } : {}),
    ...(options.midStream === true ? { midStream: true } : {}),
  });
}

function describe(context: BedrockErrorContext, lower: string | undefined, name: string | undefined, vendorMessage: string, status: number | undefined): string {
  const { provider, model, region } = context;
  if (lower === 'accessdeniedexception') {
    return `${provider}: access denied to model ${model} in region ${region}: enable it in the Bedrock console (Model access) or check the IAM policy (bedrock:InvokeModelWithResponseStream); AWS said: ${vendorMessage}`;
  }
  if (lower !== undefined && KIND_BY_NAME[lower] === 'auth') {
    return `${provider}: AWS rejected the credentials from ${context.credentialsFrom} (${name}): ${vendorMessage}; check the keys, the session token's expiry and the clock`;
  }
  if (lower === 'resourcenotfoundexception') {
    return `${provider}: model ${model} was not found in region ${region} (${vendorMessage}); check the model id or inference profile (e.g. "us.anthropic.…") against the region`;
  }
  const where = status !== undefined ? `HTTP ${status} ` : 'stream ';
  return `${provider} (bedrock) ${where}${name ?? 'error'} for ${model} in ${region}: ${vendorMessage}`;
}

/** `{"message": "..."}` (AWS JSON 1.1 errors; `Message` in some services). */
const errorBodySchema = z.looseObject({
  message: z.string().optional().catch(undefined),
  Message: z.string().optional().catch(undefined),
  __type: z.string().optional().catch(undefined),
});

/** AWS's message from an error payload's JSON, else the text itself. */
export function readBedrockErrorMessage(text: string): { message: string; type: string | undefined } {
  try {
    const checked = errorBodySchema.safeParse(JSON.parse(text));
    if (checked.success) {
      const message = checked.data.message ?? checked.data.Message;
      const type = checked.data.__type?.split('#').at(-1);
      if (message !== undefined) return { message, type };
    }
  } catch {
    // Not JSON: the text is the message.
  }
  return { message: text.trim().slice(0, 500) || '(empty body)', type: undefined };
}

/**
 * A non-2xx answer: the exception name is in the `x-amzn-errortype` header
 * (`ThrottlingException:http://internal.amazon.com/…`) or the body's `__type`.
 */
export function classifyBedrockError(context: BedrockErrorContext, status: number, bodyText: string, headers: Headers): ProviderError {
  const { message, type } = readBedrockErrorMessage(bodyText);
  const name = headers.get('x-amzn-errortype')?.split(':')[0] ?? type;
  return bedrockError(context, name, message, { status });
}
