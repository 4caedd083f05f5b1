import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../../src/config/agentd-paths.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { accumulateMessage, collectEvents } from '../../support/collect-events.js';
import { readmeCodeBlocks } from '../../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

// The README's reasoningTag example, exactly as printed: the loader accepts it, and each of
// its three settings does what the paragraph above it says.

const [example] = readmeCodeBlocks('README.md', '### Reasoning in `<think>` tags', 'json');
const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };

let server: ReplayServer;
let home: string;
beforeAll(async () => {
  server = await startReplayServer();
  home = mkdtempSync(join(tmpdir(), 'agentd-home-'));
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

function chunks(...deltas: string[]): string {
  const chunk = (delta: object, finish: string | null): string => `data: ${JSON.stringify({ id: 'r', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return deltas.map((content) => chunk({ content }, null)).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

describe('the README reasoningTag example', () => {
  it('loads, and reads the tags per provider and per model as described', async () => {
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(join(home, 'config', 'config.json'), example!);
    const { config } = loadConfig({ cwd: home, paths: resolveAgentdPaths({ AGENTD_HOME: home }) });
    const llamacpp = config.providers?.['llamacpp'];
    if (llamacpp === undefined) throw new Error('the README example configures no llamacpp provider');
    const registry = createProviderRegistry({
      config: { providers: { llamacpp: { ...llamacpp, baseUrl: `${server.url}/v1` } } },
      env: {},
      breaker: new CircuitBreaker(),
    });
    const turn = async (ref: string, ...deltas: string[]) => {
      server.enqueue({ body: chunks(...deltas) });
      return accumulateMessage(await collectEvents(registry.resolve(ref).stream(request, new AbortController().signal))).content;
    };
    expect(await turn('llamacpp/some-model', '<think>a</think>', 'b')).toEqual([{ type: 'thinking', text: 'a' }, { type: 'text', text: 'b' }]);
    expect(await turn('llamacpp/my-r1-finetune', 'a\n</think>\n\nb')).toEqual([{ type: 'thinking', text: 'a' }, { type: 'text', text: 'b' }]);
    expect(await turn('llamacpp/qwen3-8b', '<think>a</think>b')).toEqual([{ type: 'text', text: '<think>a</think>b' }]);
  });
});
