/** Where one Vertex AI model is called: the project, the location and the publisher's model. */
export interface VertexEndpoint {
  /** API origin, `https://{location}-aiplatform.googleapis.com` unless overridden (tests, private endpoints). */
  baseUrl: string;
  project: string;
  location: string;
  model: string;
}

/** Claude models are Anthropic's publisher models on Vertex; the rest are Google's (Gemini). */
export type VertexPublisher = 'google' | 'anthropic';

/** Which publisher serves a model id: `claude-…` (e.g. `claude-sonnet-4-5@20250929`) is Anthropic's. */
export function vertexPublisher(model: string): VertexPublisher {
  return /^claude-/i.test(model) ? 'anthropic' : 'google';
}

/**
 * The service endpoint of a location: regional `https://{location}-aiplatform.googleapis.com`,
 * and `https://aiplatform.googleapis.com` for `global`
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations#use_the_global_endpoint).
 */
export function vertexOrigin(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/**
 * The streaming method's URL: Gemini's `streamGenerateContent?alt=sse`
 * (https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models/streamGenerateContent)
 * or Anthropic's `streamRawPredict` (https://docs.anthropic.com/en/api/claude-on-vertex-ai).
 */
export function vertexStreamUrl(endpoint: VertexEndpoint): string {
  const publisher = vertexPublisher(endpoint.model);
  const method = publisher === 'anthropic' ? 'streamRawPredict' : 'streamGenerateContent?alt=sse';
  const base = endpoint.baseUrl.replace(/\/+$/, '');
  const segment = (value: string): string => encodeURIComponent(value).replace(/%40/g, '@');
  return `${base}/v1/projects/${segment(endpoint.project)}/locations/${segment(endpoint.location)}/publishers/${publisher}/models/${segment(endpoint.model)}:${method}`;
}
