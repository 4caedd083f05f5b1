/**
 * The subset of the Gemini API (v1beta `generateContent` / `streamGenerateContent`) wire
 * format this protocol sends and reads. Reference: https://ai.google.dev/api/generate-content
 * and the Content / Part / Tool types at https://ai.google.dev/api/caching.
 */

/** One Part: exactly one data field (`text`, `inlineData`, `functionCall`, `functionResponse`) plus optional flags. */
export interface GeminiPart {
  text?: string;
  /** The part is a thought summary (https://ai.google.dev/gemini-api/docs/thinking). */
  thought?: boolean;
  /** Opaque reasoning signature; must go back on the same part (https://ai.google.dev/gemini-api/docs/thought-signatures). */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

/**
 * A function call. Sent whole (`name` and `args`), or, when arguments are streamed
 * (`streamFunctionCallArguments`, Gemini 3), as a first part with `name` and
 * `willContinue: true`, then parts with only `partialArgs` and `willContinue`, until a
 * part without `willContinue` (often `{}`) ends the call. Every field is optional on the
 * wire, so each is read with care.
 */
export interface GeminiFunctionCall {
  /** Present on some models; echoed on the matching functionResponse. */
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
  /** Leaves of the arguments streamed so far (FunctionCall.partialArgs). */
  partialArgs?: GeminiPartialArg[];
  /** True while more parts of this call follow. */
  willContinue?: boolean;
}

/** One streamed argument leaf (PartialArg): a JSON path and exactly one value. */
export interface GeminiPartialArg {
  /** RFC 9535 path of the leaf, e.g. `$.recipe.steps[0]`. */
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  /** `"NULL_VALUE"` (google.protobuf.NullValue) for a JSON null. */
  nullValue?: string | null;
  /** True when the next PartialArg for the same path continues this string. */
  willContinue?: boolean;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** `output` for the result, `error` for a failure (FunctionResponse docs). */
  response: Record<string, unknown>;
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** The arguments as JSON Schema; mutually exclusive with the OpenAPI-subset `parameters`. */
  parametersJsonSchema: Record<string, unknown>;
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  thinkingConfig?: { thinkingBudget: number; includeThoughts?: boolean };
}

/** The body POSTed to `models/{model}:streamGenerateContent?alt=sse`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  generationConfig?: GeminiGenerationConfig;
}

/** `usageMetadata`: a snapshot of the whole response so far; the last one wins. */
export interface GeminiUsageMetadata {
  /** Whole prompt, cached content included. */
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  /** Of the prompt, how much came from the context cache. */
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  /** Prompt tokens added by tool use (e.g. grounding results). */
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

/** `error` of a Google API error body (https://ai.google.dev/gemini-api/docs/troubleshooting, google.rpc.Status). */
export interface GeminiErrorObject {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<Record<string, unknown>>;
}

/**
 * Where a `thoughtSignature` sat when it did not sit on a function call, kept in
 * `providerData.geminiPart` so it goes back on the same kind of part:
 * `text` (a text part with text), `empty-text` (`{text: ""}`), `thought` (a thought
 * summary part) or `bare` (a part with nothing but the signature).
 */
export type GeminiSignaturePart = 'text' | 'empty-text' | 'thought' | 'bare';
