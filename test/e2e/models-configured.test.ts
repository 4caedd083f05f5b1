import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelsCommand } from '../../src/cli/commands/models.js';
import type { ModelRow } from '../../src/providers/catalog/list-model-rows.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { freePort } from '../support/free-port.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** Whether something accepts connections on 127.0.0.1:port (a local Ollama or LM Studio on this machine). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

describe('agentd models --configured asks the servers', () => {
  let server: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let downPort: number;

  beforeEach(async () => {
    server = await startReplayServer({ respond: () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b' }, { id: 'gemma3:4b' }] }) }) });
    downPort = await freePort();
    home = makeHome({ providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` }, down: { type: 'openai-chat', baseUrl: `http://127.0.0.1:${downPort}/v1` } } });
  });

  afterEach(async () => {
    await server.close();
    home.cleanup();
  });

  async function models(args: string[]): Promise<string> {
    let out = '';
    await modelsCommand(args, { env: daemonEnv(home.home), cwd: home.home, write: (text) => void (out += text) });
    return out;
  }

  it("lists what an OpenAI-compatible server's /v1/models offers", async () => {
    const rows = (await models(['--configured', '--json'])).trim().split('\n').map((line) => JSON.parse(line) as ModelRow);
    const local = rows.filter((row) => row.provider === 'local').map((row) => [row.ref, row.source, row.configured]);
    expect(local).toEqual([
      ['local/gemma3:4b', 'server', true],
      ['local/qwen3:8b', 'server', true],
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect(rows.some((row) => row.provider === 'down')).toBe(false);
  });

  it('says which configured server was not reached, and calls a local preset configured only when it answers', async () => {
    const text = await models(['--configured']);
    expect(text).toMatch(/local\/qwen3:8b/);
    expect(text).toContain(`Not reached: down: down: network error (ECONNREFUSED) calling http://127.0.0.1:${downPort}/v1/models`);
    expect(text).toContain(`nothing answered at http://127.0.0.1:${downPort}/v1 (from providers.down.baseUrl in config.json)`);
    const configuredLine = /^Configured, any model id.*$/m.exec(text)?.[0] ?? '';
    // Ollama and LM Studio on their default ports count as configured only when they answer there.
    for (const [preset, port] of [['ollama', 11434], ['lmstudio', 1234]] as const) {
      const answers = await listening(port);
      expect(configuredLine.includes(preset) || text.includes(`${preset}/`), `${preset} (port ${port} ${answers ? 'open' : 'closed'})`).toBe(answers);
    }
  });
});
