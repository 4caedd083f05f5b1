import { describe, expect, it } from 'vitest';
import { vertexOrigin, vertexPublisher, vertexStreamUrl } from '../../../src/providers/vertex/vertex-endpoint.js';

describe('Vertex endpoints', () => {
  it('uses the regional host, and aiplatform.googleapis.com for global', () => {
    expect(vertexOrigin('us-east5')).toBe('https://us-east5-aiplatform.googleapis.com');
    expect(vertexOrigin('global')).toBe('https://aiplatform.googleapis.com');
  });

  it('streams Gemini with streamGenerateContent?alt=sse and Claude with streamRawPredict, the @version kept readable', () => {
    expect(vertexStreamUrl({ baseUrl: vertexOrigin('europe-west4'), project: 'my-proj', location: 'europe-west4', model: 'gemini-2.5-pro' })).toBe(
      'https://europe-west4-aiplatform.googleapis.com/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(vertexStreamUrl({ baseUrl: 'https://aiplatform.googleapis.com/', project: 'my-proj', location: 'global', model: 'claude-opus-4-1@20250805' })).toBe(
      'https://aiplatform.googleapis.com/v1/projects/my-proj/locations/global/publishers/anthropic/models/claude-opus-4-1@20250805:streamRawPredict',
    );
    expect([vertexPublisher('claude-haiku-4-5@20251001'), vertexPublisher('gemini-2.5-flash')]).toEqual(['anthropic', 'google']);
  });
});
