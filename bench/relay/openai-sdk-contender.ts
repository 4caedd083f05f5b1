import OpenAI from 'openai';
import { performance } from 'node:perf_hooks';
import { statusMiB } from '../support/proc-stats.js';
import type { RelayContender, RelayRun } from './relay-run.js';

/**
 * The `openai` SDK in this process reading the same loopback stream: stream
 * chat.completions, iterate every chunk, touch delta.content. It writes nothing, so it
 * has no bytes on the wire; its CPU time is this process's (the vendor runs elsewhere,
 * and the other contenders are idle while it runs), its peak RSS this process's too.
 */
export function startOpenAiSdk(vendorUrl: string, expected: string): RelayContender {
  const client = new OpenAI({ baseURL: `${vendorUrl}/v1`, apiKey: 'bench-key', maxRetries: 0 });
  return {
    name: 'openai SDK in-process',
    async run(): Promise<RelayRun> {
      const pieces: string[] = [];
      let firstContentAt: number | undefined;
      let lastContentAt = 0;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const stream = await client.chat.completions.create({
        model: 'bench',
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta?.content;
        if (typeof content !== 'string') continue;
        lastContentAt = performance.now();
        firstContentAt ??= lastContentAt;
        pieces.push(content);
      }
      const finished = performance.now();
      const ms = finished - started;
      const cpu = process.cpuUsage(cpuBefore);
      const text = pieces.join('');
      if (text !== expected) throw new Error(`openai SDK: ${text.length} of ${expected.length} characters`);
      return {
        ms,
        streamMs: lastContentAt - (firstContentAt ?? lastContentAt),
        streamChunks: pieces.length - 1,
        cpuMs: (cpu.user + cpu.system) / 1000,
        contentLines: 0,
        bytesPerChunkFirst100: 0,
        bytesPerChunkLast100: 0,
        bytesPerChunkAll: 0,
        peakRssMiB: statusMiB(process.pid, 'VmHWM'),
      };
    },
    async close(): Promise<void> {},
  };
}
