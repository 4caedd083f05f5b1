import { classifyAnthropicMessagesError } from '../anthropic-messages/anthropic-messages-error.js';
import { classifyGeminiError } from '../gemini/gemini-error.js';
import { ProviderError } from '../provider-error.js';
import { vertexPublisher } from './vertex-endpoint.js';

/** Who failed and with which credential, for the messages. */
export interface VertexErrorContext {
  provider: string;
  model: string;
  project: string;
  location: string;
  /** The credential the token came from, e.g. `the service-account key sa@p.iam.gserviceaccount.com in /k.json (from GOOGLE_APPLICATION_CREDENTIALS)`. */
  credential: string;
}

/**
 * A non-2xx answer of Vertex AI. The platform answers in google.rpc.Status form
 * (`{error:{code,message,status}}`) for both publishers, while Claude's own failures
 * keep Anthropic's form, so Google's form is tried first. 401 and 403 become one line
 * naming the model, project, location and credential, with what the project needs.
 */
export function classifyVertexError(context: VertexErrorContext, status: number, bodyText: string, headers: Headers): ProviderError {
  const errorContext = { provider: context.provider, model: context.model };
  const googleForm = /"status"\s*:\s*"[A-Z_]+"/.test(bodyText);
  const classified =
    vertexPublisher(context.model) === 'anthropic' && !googleForm
      ? classifyAnthropicMessagesError(errorContext, status, bodyText, headers)
      : classifyGeminiError(errorContext, status, bodyText, headers);
  // Google's form is the platform speaking, for Claude too: label it Vertex, not the Gemini wire.
  if (googleForm) classified.message = classified.message.replace(`${context.provider} (gemini)`, `${context.provider} (vertex)`);
  if (status !== 401 && status !== 403) return classified;
  const vendor = classified.message.replace(/^.*?HTTP \d+:?\s*/, '');
  const where = `for model ${context.model} in project ${context.project}, location ${context.location}, with ${context.credential} (${vendor})`;
  const fix =
    status === 401
      ? 'sign in again with "gcloud auth application-default login", or check the service-account key'
      : `check that the Vertex AI API is enabled in the project${vertexPublisher(context.model) === 'anthropic' ? ', that the model is enabled in Model Garden' : ''} and that the account has roles/aiplatform.user`;
  return new ProviderError({
    kind: 'auth',
    provider: context.provider,
    model: context.model,
    status,
    message: `${context.provider} (vertex) HTTP ${status}: ${status === 401 ? 'the access token was not accepted' : 'access denied'} ${where}; ${fix}`,
  });
}
