import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DaemonHealthResponse } from '../../../protocol/index.js';
import { detectSandbox } from '../../../src/tools/sandbox/detect-sandbox.js';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { daemonEnv, makeHome, until } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const overloaded = { status: 503, body: JSON.stringify({ error: { message: 'overloaded' } }) };

describe('daemon/health', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let root: string;
  let project: string;
  let daemon: InProcessDaemon | undefined;

  beforeEach(async () => {
    replay = await startReplayServer();
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-health-')));
    project = join(root, 'app');
    mkdirSync(join(project, '.agentd'), { recursive: true });
  });

  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
    await replay.close();
    home.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  async function start(config: Record<string, unknown>, env: Record<string, string> = {}): Promise<InProcessDaemon> {
    home = makeHome(config);
    daemon = startInProcessDaemon(daemonEnv(home.home, env), root);
    await daemon.peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
    return daemon;
  }

  it('lists the providers of the user\'s config, the environment and a trusted project, with where each key comes from and never the key', async () => {
    writeFileSync(join(project, '.agentd', 'config.json'), JSON.stringify({ providers: { mine: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } } }));
    const { peer } = await start(
      {
        model: 'local/e2e-model',
        fallbackModel: 'deepseek/deepseek-chat',
        trustedProjects: [project],
        providers: {
          local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` },
          keyed: { type: 'openai-chat', baseUrl: 'http://user:secret@127.0.0.1:9/v1', apiKey: 'sk-config-value' },
        },
      },
      { ANTHROPIC_API_KEY: 'sk-ant-env-value' },
    );
    await peer.call('session/new', { cwd: project, mcpServers: [] });

    const health = await peer.call('daemon/health', {});
    const closed = { state: 'closed', consecutiveFailures: 0, openedAt: null };
    const user = [
      { id: 'anthropic', type: 'anthropic-messages', project: null, hasKey: true, keySource: 'env', baseUrl: 'https://api.anthropic.com', breaker: closed },
      { id: 'deepseek', type: 'openai-chat', project: null, hasKey: false, keySource: 'none', baseUrl: expect.stringContaining('deepseek'), breaker: closed },
      { id: 'keyed', type: 'openai-chat', project: null, hasKey: true, keySource: 'config', baseUrl: 'http://127.0.0.1:9/v1', breaker: closed },
      { id: 'local', type: 'openai-chat', project: null, hasKey: true, keySource: 'not_needed', baseUrl: `${replay.url}/v1`, breaker: closed },
    ];
    // The project's sessions use a registry of their own (its breakers too): the user's providers and its own.
    const projectScope = [...user.slice(0, 4), { id: 'mine', type: 'openai-chat', project: null, hasKey: true, keySource: 'not_needed', baseUrl: 'http://127.0.0.1:9/v1', breaker: closed }]
      .map((provider) => ({ ...provider, project }));
    expect(health.providers).toEqual([...user, ...projectScope]);
    const text = JSON.stringify(health);
    for (const secret of ['sk-config-value', 'sk-ant-env-value', 'secret']) expect(text).not.toContain(secret);
  });

  it('shows a breaker opened by failures, and keeps the retries, the fallback and the breaker change, newest first', async () => {
    const { peer } = await start({
      model: 'local/e2e-model',
      fallbackModel: 'backup/e2e-model',
      providers: {
        local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 4, maxRetryDelayMs: 0 },
        backup: { type: 'openai-chat', baseUrl: `${replay.url}/v1` },
      },
    });
    // Five failures in a row open local's breaker; the backup answers.
    for (let i = 0; i < 5; i++) replay.enqueue(overloaded);
    replay.enqueue({ body: chatCompletionSse(['from the backup']) });
    const { sessionId } = await peer.call('session/new', { cwd: project, mcpServers: [] });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    // The next request finds the breaker open and goes to the backup at once.
    replay.enqueue({ body: chatCompletionSse(['again from the backup']) });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello again' }] });

    const health = await peer.call('daemon/health', {});
    const local = health.providers.find((p) => p.id === 'local')!;
    expect(local.breaker).toEqual({ state: 'open', consecutiveFailures: 5, openedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(health.providers.find((p) => p.id === 'backup')!.breaker.state).toBe('closed');
    const kinds = health.recent.map((incident) => incident.kind);
    expect(kinds).toEqual(['fallback', 'fallback', 'breaker_opened', 'retry', 'retry', 'retry', 'retry']);
    expect(health.recent.every((incident) => incident.provider === 'local' && incident.sessionId === sessionId)).toBe(true);
    expect(health.recent[3]!.detail).toMatch(/^attempt 4 in 0 ms: .*overloaded/);
    expect(health.recent[2]!.detail).toMatch(/fail fast/);
    expect(health.recent[0]!.detail).toMatch(/backup\/e2e-model took over from local\/e2e-model/);
    expect(Date.parse(health.recent[0]!.at)).toBeGreaterThanOrEqual(Date.parse(health.recent[6]!.at));
  });

  it('keeps each MCP server\'s latest state with its last error', async () => {
    const { peer } = await start({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, mcpServers: { broken: { command: join(root, 'no-such-mcp-server') } } });
    let health: DaemonHealthResponse | undefined;
    await until(async () => {
      health = await peer.call('daemon/health', {});
      return health.mcpServers.some((server) => server.state === 'failed');
    }, 10_000, 'the MCP server to fail');
    expect(health!.mcpServers).toEqual([{ name: 'broken', state: 'failed', tools: 0, lastError: expect.stringMatching(/no-such-mcp-server|ENOENT/) }]);
  });

  it('keeps configuration edits applied and refused, newest first, with the file, path and problem', async () => {
    const config = { model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } };
    const { peer } = await start(config);
    const context = await daemon!.context();
    await context.reloader.settled();
    const file = join(home.home, 'config', 'config.json');
    const rejected = peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'config_rejected');
    writeFileSync(file, JSON.stringify({ ...config, maxTurns: 'ten' }));
    await rejected;
    const reloaded = peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'config_reloaded');
    writeFileSync(file, JSON.stringify({ ...config, maxTurns: 10 }));
    await reloaded;

    const health = await peer.call('daemon/health', {});
    expect(health.config).toEqual([
      { at: expect.any(String), file, outcome: 'reloaded' },
      { at: expect.any(String), file, outcome: 'rejected', path: 'maxTurns', problem: expect.stringMatching(/whole number/) },
    ]);
  });

  it('describes the sandbox of bash and what it hides', async () => {
    const { peer } = await start({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, sandbox: { denyRead: [join(root, 'secrets')] } });
    const { sandbox } = await peer.call('daemon/health', {});
    const probe = await detectSandbox();
    expect(sandbox.kind).toBe((await (await daemon!.context()).sandbox).mode);
    expect(sandbox.available).toBe(probe.mode === 'bubblewrap');
    expect(sandbox.hidden).toContain(join(root, 'secrets'));
    expect(sandbox.hidden.some((path) => path.endsWith('/.ssh'))).toBe(true);
    expect(sandbox.detail).toMatch(/^bash sandbox: /);
  });
});
