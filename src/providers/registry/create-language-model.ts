import type { ProviderType } from '../../config/provider-config-schema.js';
import { AnthropicMessagesModel } from '../anthropic-messages/anthropic-messages-model.js';
import { CohereModel } from '../cohere/cohere-model.js';
import { BedrockModel } from '../bedrock/bedrock-model.js';
import type { AwsIdentity } from '../bedrock/resolve-aws-credentials.js';
import { createCopilotModel } from '../copilot/copilot-model.js';
import { copilotTokenSource } from '../copilot/copilot-token-source.js';
import { GeminiModel } from '../gemini/gemini-model.js';
import type { HttpTimeouts } from '../http/post-stream.js';
import type { LanguageModel } from '../language-model.js';
import { OpenAIChatModel } from '../openai-chat/openai-chat-model.js';
import type { OpenAIChatQuirks } from '../openai-chat/openai-chat-quirks.js';
import { OpenAIResponsesModel } from '../openai-responses/openai-responses-model.js';
import type { GoogleAccessTokenSource } from '../vertex/google-auth/google-access-token-source.js';
import { VertexModel } from '../vertex/vertex-model.js';

/** Everything needed to build one model, already resolved from presets, config and environment. */
export interface LanguageModelSpec {
  protocol: ProviderType;
  /** Provider id (`deepseek`, `local`, …). */
  provider: string;
  /** The vendor's model id. */
  modelId: string;
  /** API root in the form the protocol's model class expects. */
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (config `maxResponseBytes`). */
  maxResponseBytes?: number;
  /** openai-chat only. */
  quirks?: OpenAIChatQuirks;
  /** Azure OpenAI (openai-chat and openai-responses). */
  azure?: { apiVersion: string; deployment: string };
  /** Vertex AI: the project, the location and the provider's token source. */
  vertex?: { project: string; location: string; tokens: GoogleAccessTokenSource };
  /** Amazon Bedrock: credentials and region, resolved for each request, and the environment they came from. */
  bedrock?: { identity: () => AwsIdentity; env: NodeJS.ProcessEnv };
  /** copilot only: the login `agentd login copilot` stored (`<stateDir>/copilot.json`). */
  copilotLoginFile?: string;
}

type Factory = (spec: LanguageModelSpec) => LanguageModel;

/** What every model class takes alike: which model, where it is sent, and the HTTP limits. */
function common(spec: LanguageModelSpec): Pick<LanguageModelSpec, 'provider' | 'modelId' | 'baseUrl' | 'headers' | 'timeouts' | 'maxResponseBytes'> {
  return { provider: spec.provider, modelId: spec.modelId, baseUrl: spec.baseUrl, headers: spec.headers, timeouts: spec.timeouts, maxResponseBytes: spec.maxResponseBytes };
}

/** One constructor per wire protocol: the only place that knows the model classes. */
const factories: Record<ProviderType, Factory> = {
  'openai-chat': (spec) =>
    new OpenAIChatModel({
      ...common(spec),
      apiKey: spec.apiKey,
      quirks: spec.quirks,
      azure: spec.azure,
    }),
  'openai-responses': (spec) =>
    new OpenAIResponsesModel({
      ...common(spec),
      // On Azure the Responses API takes the deployment name as `model`.
      modelId: spec.azure?.deployment ?? spec.modelId,
      apiKey: spec.apiKey,
      azure: spec.azure === undefined ? undefined : { apiVersion: spec.azure.apiVersion },
    }),
  'anthropic-messages': (spec) =>
    new AnthropicMessagesModel({
      ...common(spec),
      apiKey: spec.apiKey,
    }),
  gemini: (spec) =>
    new GeminiModel({
      ...common(spec),
      apiKey: spec.apiKey,
    }),
  cohere: (spec) =>
    new CohereModel({
      ...common(spec),
      apiKey: spec.apiKey,
    }),
  vertex: (spec) => {
    if (spec.vertex === undefined) throw new Error(`provider "${spec.provider}" (vertex) was resolved without its project, location and credentials`);
    return new VertexModel({ ...common(spec), ...spec.vertex });
  },
  bedrock: (spec) => {
    if (spec.bedrock === undefined) throw new Error(`provider "${spec.provider}" (bedrock) was built without its AWS identity`);
    return new BedrockModel({
      ...common(spec),
      identity: spec.bedrock.identity,
    });
  },
  copilot: (spec) => {
    if (spec.copilotLoginFile === undefined) throw new Error(`provider "${spec.provider}" (copilot) was built without its login file`);
    return createCopilotModel({ ...common(spec), tokens: copilotTokenSource(spec.copilotLoginFile, spec.provider), quirks: spec.quirks });
  },
};

/** Build the model for a resolved spec. */
export function createLanguageModel(spec: LanguageModelSpec): LanguageModel {
  return factories[spec.protocol](spec);
}
