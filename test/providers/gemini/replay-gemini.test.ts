import { GeminiModel } from '../../../src/providers/gemini/gemini-model.js';
import { describeFixtureReplays } from '../../support/describe-fixture-replays.js';

// The streamed-args-* transcripts have the wire shape of Gemini 3's streamed function-call
// arguments (FunctionCall.partialArgs / PartialArg / willContinue in @google/genai's
// types and https://googleapis.github.io/js-genai/release_docs/interfaces/types.PartialArg.html),
// as recorded from Vertex AI in vercel/ai's packages/google/src/__fixtures__/google-stream-*
// and google-vertex-stream-tool-call-arguments-nested: a `{name, willContinue}` part, parts
// with one `partialArgs` leaf each, strings closed by an empty piece, `{willContinue: true}`
// between array elements, and `{}` (or a last part without `willContinue`) ending the call.
const model = 'gemini-2.5-flash';

describeFixtureReplays({
  protocol: 'gemini',
  minimum: 10,
  request: { model, system: [{ text: 'You are terse.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], maxTokens: 1024 },
  createModel: (baseUrl) => new GeminiModel({ provider: 'gemini', modelId: model, baseUrl, apiKey: 'AIzaSyReplayTestKey000000000000000000' }),
});
