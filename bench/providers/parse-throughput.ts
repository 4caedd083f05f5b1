import { performance } from 'node:perf_hooks';
import { agentdModelRun, agentdParserRun } from './agentd-contenders.js';
import { anthropicMessagesTranscript } from './anthropic-messages-transcript.js';
import { benchProtocols, splitIntoSocketChunks, type BenchProtocol, type BenchTranscript } from './bench-transcript.js';
import { geminiTranscript } from './gemini-transcript.js';
import { startLoopbackSseServer } from './loopback-sse-server.js';
import { memoryFetch } from './memory-fetch.js';
import { openAIChatTranscript } from './openai-chat-transcript.js';
import { openAIResponsesTranscript } from './openai-responses-transcript.js';
import { sdkRun } from './sdk-contenders.js';
import { checkTally, type Tally } from './tally.js';

const transcripts: Record<BenchProtocol, (events: number) => BenchTranscript> = {
  'openai-chat': openAIChatTranscript,
  'anthropic-messages': anthropicMessagesTranscript,
  'openai-responses': openAIResponsesTranscript,
  gemini: geminiTranscript,
};

/** The official SDK each protocol is compared with. */
export const officialSdks: Record<BenchProtocol, string> = {
  'openai-chat': 'openai (chat.completions.create, stream: true)',
  'anthropic-messages': '@anthropic-ai/sdk (messages.create, stream: true)',
  'openai-responses': 'openai (responses.create, stream: true)',
  gemini: '@google/genai (models.generateContentStream)',
};

/** One contender: who parses, and whether the bytes come from memory or the loopback socket. */
export interface ContenderFigure {
  side: 'agentd' | 'sdk';
  transport: 'memory' | 'http';
  /** Median wall time of one whole stream, in milliseconds. */
  medianMs: number;
  /** Wire events per second at the median. */
  eventsPerSecond: number;
  /** Body megabytes (10^6 bytes) per second at the median. */
  megabytesPerSecond: number;
}

export interface ProtocolResult {
  protocol: BenchProtocol;
  sdk: string;
  /** Body size in bytes and SSE events on the wire. */
  bytes: number;
  wireEvents: number;
  /** Socket-sized chunks the body was cut into (1–4 KB). */
  chunks: number;
  contenders: ContenderFigure[];
}

export interface ParseThroughputOptions {
  /** Wire events per transcript; 5,000 by default. */
  events?: number;
  /** Timed runs per contender; the median is reported. 15 by default. */
  runs?: number;
  /** Untimed runs per contender first (JIT warm-up, keep-alive sockets opened). 5 by default. */
  warmup?: number;
  protocols?: readonly BenchProtocol[];
}

interface Contender {
  side: 'agentd' | 'sdk';
  transport: 'memory' | 'http';
  run: () => Promise<Tally>;
}

/**
 * Parse throughput per protocol, agentd against the official SDK, side by side in one
 * process: the same transcript, cut into the same socket-sized chunks, read (a) from
 * memory, agentd's parser against the SDK behind an in-memory fetch, and (b) from one
 * loopback HTTP server, agentd's registry-resolved model against the SDK client. Runs
 * are interleaved (the order rotates each round) so drift hits every contender alike;
 * every run is checked to have delivered all the text and the tool call.
 */
export async function benchParseThroughput(options: ParseThroughputOptions = {}): Promise<ProtocolResult[]> {
  const events = options.events ?? 5000;
  const runs = options.runs ?? 15;
  const warmup = options.warmup ?? 5;
  const server = await startLoopbackSseServer();
  const results: ProtocolResult[] = [];
  try {
    for (const protocol of options.protocols ?? benchProtocols) {
      const transcript = transcripts[protocol](events);
      const chunks = splitIntoSocketChunks(transcript.bytes);
      server.serve(chunks);
      const contenders: Contender[] = [
        { side: 'agentd', transport: 'memory', run: agentdParserRun(protocol, chunks) },
        { side: 'sdk', transport: 'memory', run: sdkRun(protocol, { origin: server.url, fetch: memoryFetch(chunks) }) },
        { side: 'agentd', transport: 'http', run: agentdModelRun(protocol, server.url) },
        { side: 'sdk', transport: 'http', run: sdkRun(protocol, { origin: server.url }) },
      ];
      const label = (c: Contender): string => `${c.side} ${c.transport}`;
      for (const contender of contenders) {
        for (let i = 0; i < warmup; i++) checkTally(label(contender), transcript, await contender.run());
      }
      const times = contenders.map((): number[] => []);
      for (let round = 0; round < runs; round++) {
        for (let k = 0; k < contenders.length; k++) {
          const index = (k + round) % contenders.length;
          const contender = contenders[index] as Contender;
          const started = performance.now();
          const tally = await contender.run();
          times[index]?.push(performance.now() - started);
          checkTally(label(contender), transcript, tally);
        }
      }
      results.push({
        protocol,
        sdk: officialSdks[protocol],
        bytes: transcript.bytes.length,
        wireEvents: transcript.wireEvents,
        chunks: chunks.length,
        contenders: contenders.map((contender, i) => {
          const medianMs = median(times[i] ?? []);
          return {
            side: contender.side,
            transport: contender.transport,
            medianMs,
            eventsPerSecond: transcript.wireEvents / (medianMs / 1000),
            megabytesPerSecond: transcript.bytes.length / 1e6 / (medianMs / 1000),
          };
        }),
      });
    }
  } finally {
    await server.close();
  }
  return results;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}
