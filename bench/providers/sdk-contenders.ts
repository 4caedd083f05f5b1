import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { benchModelIds, benchTool } from './agentd-contenders.js';
import type { BenchProtocol } from './bench-transcript.js';
import type { FetchLike } from './memory-fetch.js';
import { emptyTally, type Tally } from './tally.js';

/** Where an SDK client sends its request: the loopback origin, or an in-memory fetch. */
export interface SdkTarget {
  /** `http://127.0.0.1:PORT`; each SDK appends its own API path. */
  origin: string;
  /** Replaces the SDK's network fetch when set. */
  fetch?: FetchLike;
}

const prompt = 'Read the transport.';

/**
 * The official SDK's streaming call for each protocol, iterating every event it yields.
 * The client is built once, outside the timed runs, as an application would keep it.
 * Raw event streams are used (not the helpers that accumulate a message) since that is
 * what agentd's parser is compared with; retries are off so nothing but parsing is timed.
 */
const sdkRuns: Record<BenchProtocol, (target: SdkTarget) => () => Promise<Tally>> = {
  'openai-chat': (target) => {
    const client = new OpenAI({ baseURL: `${target.origin}/v1`, apiKey: 'bench-key', maxRetries: 0, ...fetchOption(target) });
    return async () => {
      const tally = emptyTally();
      const stream = await client.chat.completions.create({
        model: benchModelIds['openai-chat'],
        messages: [{ role: 'system', content: 'You are a benchmark.' }, { role: 'user', content: prompt }],
        tools: [{ type: 'function', function: { name: benchTool.name, description: benchTool.description, parameters: benchTool.inputSchema } }],
        max_completion_tokens: 8192,
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        if (typeof delta?.content === 'string') tally.textChars += delta.content.length;
        for (const call of delta?.tool_calls ?? []) if (call.id !== undefined) tally.toolCalls += 1;
      }
      return tally;
    };
  },
  'anthropic-messages': (target) => {
    const client = new Anthropic({ baseURL: target.origin, apiKey: 'bench-key', maxRetries: 0, ...fetchOption(target) });
    return async () => {
      const tally = emptyTally();
      const stream = await client.messages.create({
        model: benchModelIds['anthropic-messages'],
        system: 'You are a benchmark.',
        messages: [{ role: 'user', content: prompt }],
        tools: [{ name: benchTool.name, description: benchTool.description, input_schema: { ...benchTool.inputSchema, type: 'object' } }],
        max_tokens: 8192,
        stream: true,
      });
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') tally.textChars += event.delta.text.length;
        else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') tally.toolCalls += 1;
      }
      return tally;
    };
  },
  'openai-responses': (target) => {
    const client = new OpenAI({ baseURL: `${target.origin}/v1`, apiKey: 'bench-key', maxRetries: 0, ...fetchOption(target) });
    return async () => {
      const tally = emptyTally();
      const stream = await client.responses.create({
        model: benchModelIds['openai-responses'],
        instructions: 'You are a benchmark.',
        input: prompt,
        tools: [{ type: 'function', name: benchTool.name, description: benchTool.description, parameters: benchTool.inputSchema, strict: false }],
        max_output_tokens: 8192,
        stream: true,
      });
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') tally.textChars += event.delta.length;
        else if (event.type === 'response.output_item.added' && event.item.type === 'function_call') tally.toolCalls += 1;
      }
      return tally;
    };
  },
  gemini: (target) => {
    // httpOptions.baseUrl replaces https://generativelanguage.googleapis.com; the SDK adds /v1beta/models/….
    const ai = new GoogleGenAI({ apiKey: 'bench-key', httpOptions: { baseUrl: target.origin, ...fetchOption(target) } });
    return async () => {
      const tally = emptyTally();
      const stream = await ai.models.generateContentStream({
        model: benchModelIds.gemini,
        contents: prompt,
        config: {
          systemInstruction: 'You are a benchmark.',
          tools: [{ functionDeclarations: [{ name: benchTool.name, description: benchTool.description, parametersJsonSchema: benchTool.inputSchema }] }],
          maxOutputTokens: 8192,
        },
      });
      for await (const chunk of stream) {
        // The parts directly: chunk.text would warn on every non-text part.
        for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
          if (typeof part.text === 'string') tally.textChars += part.text.length;
          if (part.functionCall !== undefined) tally.toolCalls += 1;
        }
      }
      return tally;
    };
  },
};

/** The official SDK of `protocol`, reading from `target`. */
export function sdkRun(protocol: BenchProtocol, target: SdkTarget): () => Promise<Tally> {
  return sdkRuns[protocol](target);
}

function fetchOption(target: SdkTarget): { fetch?: FetchLike } {
  return target.fetch === undefined ? {} : { fetch: target.fetch };
}
