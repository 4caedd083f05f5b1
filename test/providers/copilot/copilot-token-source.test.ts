import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCopilotModel } from '../../../src/providers/copilot/copilot-model.js';
import { CopilotTokenSource } from '../../../src/providers/copilot/copilot-token-source.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import { collectEvents } from '../../support/collect-events.js';
import { writeCopilotLogin } from '../../support/copilot-login-file.js';
import { copilotTokenAnswer, startGitHubStandIn, type GitHubStandIn, type StandInAnswer } from '../../support/github-stand-in.js';
import { startReplayServer } from '../../support/replay-server.js';

describe('the Copilot token: exchanged, cached, refreshed before it expires', () => {
  let home: string;
  let github: GitHubStandIn | undefined;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'agentd-copilot-'));
  });
  afterEach(async () => {
    await github?.close();
    github = undefined;
    rmSync(home, { recursive: true, force: true });
  });

  const signal = (): AbortSignal => new AbortController().signal;
  async function source(exchange: (n: number) => StandInAnswer, now?: () => number): Promise<CopilotTokenSource> {
    github = await startGitHubStandIn({ exchange });
    const loginFile = await writeCopilotLogin({ AGENTD_HOME: home }, github.url, 'ghu_stored');
    return new CopilotTokenSource({ loginFile, provider: 'copilot', ...(now ? { now } : {}) });
  }
  const failure = async (promise: Promise<unknown>): Promise<ProviderError> => {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  };

  it('exchanges the stored GitHub token with `Authorization: token` and the client headers, and keeps the answer', async () => {
    const tokens = await source((n) => copilotTokenAnswer('https://api.business.githubcopilot.com', { token: `copilot-${n}` }));
    const first = await tokens.token('gpt-4o', signal());
    expect(first).toMatchObject({ token: 'copilot-0', apiUrl: 'https://api.business.githubcopilot.com' });
    expect(await tokens.token('gpt-4o', signal())).toBe(first);
    const [exchange] = github!.exchanges();
    expect(github!.exchanges()).toHaveLength(1);
    expect(exchange!.headers).toMatchObject({ authorization: 'token ghu_stored', accept: 'application/json', 'copilot-integration-id': 'vscode-chat' });
    expect(exchange!.headers['editor-version']).toMatch(/^vscode\//);
  });

  it('exchanges again once refresh_in has passed, before the token expires', async () => {
    let clock = Date.now();
    const tokens = await source((n) => copilotTokenAnswer('https://api.githubcopilot.com', { token: `copilot-${n}`, expiresInS: 1800, refreshInS: 1500 }), () => clock);
    expect((await tokens.token('m', signal())).token).toBe('copilot-0');
    clock += 1_499_000;
    expect((await tokens.token('m', signal())).token).toBe('copilot-0');
    clock += 2_000;
    const renewed = await tokens.token('m', signal());
    expect(renewed.token).toBe('copilot-1');
    expect(renewed.refreshAt).toBeLessThan(renewed.expiresAt);
    expect(github!.exchanges()).toHaveLength(2);
  });

  it('refreshes a minute before expiry when refresh_in is later than that', async () => {
    let clock = Date.now();
    const tokens = await source((n) => copilotTokenAnswer('https://api.githubcopilot.com', { token: `copilot-${n}`, expiresInS: 600, refreshInS: 900 }), () => clock);
    await tokens.token('m', signal());
    clock += 541_000;
    expect((await tokens.token('m', signal())).token).toBe('copilot-1');
  });

  it('shares one exchange among concurrent requests', async () => {
    const tokens = await source((n) => ({ ...copilotTokenAnswer('https://api.githubcopilot.com', { token: `copilot-${n}` }), delayMs: 150 }));
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => tokens.token('m', signal())));
    expect(new Set(all.map((t) => t.token))).toEqual(new Set(['copilot-0']));
    expect(github!.exchanges()).toHaveLength(1);
  });

  it('one caller giving up does not fail the shared exchange for the others', async () => {
    const tokens = await source(() => ({ ...copilotTokenAnswer('https://api.githubcopilot.com'), delayMs: 150 }));
    const impatient = new AbortController();
    const gaveUp = tokens.token('m', impatient.signal);
    const waits = tokens.token('m', signal());
    impatient.abort();
    expect((await failure(gaveUp)).kind).toBe('aborted');
    expect((await waits).token).toMatch(/^tid=/);
  });

  it('401 and 403 say the login or the seat is not valid, in one line, and are not retried', async () => {
    for (const status of [401, 403]) {
      const tokens = await source(() => ({ status, body: { message: status === 401 ? 'Bad credentials' : 'Resource not accessible by integration' } }));
      const error = await failure(tokens.token('m', signal()));
      expect(error.message).toBe(`copilot: GitHub refused the Copilot token (HTTP ${status}): the stored login is not valid or the account has no Copilot seat; run \`agentd login copilot\` again`);
      expect({ kind: error.kind, retryable: error.retryable }).toEqual({ kind: 'auth', retryable: false });
      await github!.close();
      github = undefined;
    }
  });

  it('429 is retryable with GitHub\'s retry-after, and a failure is not remembered', async () => {
    const tokens = await source((n) => (n === 0 ? { status: 429, body: { message: 'API rate limit exceeded' }, headers: { 'retry-after': '7' } } : copilotTokenAnswer('https://api.githubcopilot.com')));
    const error = await failure(tokens.token('m', signal()));
    expect({ kind: error.kind, retryable: error.retryable, retryAfterMs: error.retryAfterMs, status: error.status }).toEqual({ kind: 'rate_limit', retryable: true, retryAfterMs: 7000, status: 429 });
    expect((await tokens.token('m', signal())).token).toMatch(/^tid=/);
  });

  it('without a login says so in one line', async () => {
    const tokens = new CopilotTokenSource({ loginFile: join(home, 'state', 'copilot.json'), provider: 'copilot' });
    const error = await failure(tokens.token('m', signal()));
    expect({ kind: error.kind, message: error.message }).toEqual({ kind: 'auth', message: 'copilot: not logged in; run `agentd login copilot`' });
  });

  it('refuses a login file others can read', async () => {
    const tokens = await source(() => copilotTokenAnswer('https://api.githubcopilot.com'));
    chmodSync(join(home, 'state', 'copilot.json'), 0o644);
    const error = await failure(tokens.token('m', signal()));
    expect(error.message).toBe(`copilot: ${join(home, 'state', 'copilot.json')} is readable by others (mode 644); run \`chmod 600 ${join(home, 'state', 'copilot.json')}\` or \`agentd login copilot\` again`);
    expect(github!.exchanges()).toHaveLength(0);
  });
});

describe('a token the chat endpoint refuses', () => {
  it('is forgotten, so the next request exchanges a new one, and the error says so in one line', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agentd-copilot-'));
    const chat = await startReplayServer();
    const github = await startGitHubStandIn({ exchange: (n) => copilotTokenAnswer(chat.url, { token: `tid=copilot-${n}` }) });
    try {
      const loginFile = await writeCopilotLogin({ AGENTD_HOME: home }, github.url);
      const model = createCopilotModel({ provider: 'copilot', modelId: 'gpt-4o', baseUrl: 'https://api.githubcopilot.com', tokens: new CopilotTokenSource({ loginFile, provider: 'copilot' }) });
      const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [] };
      chat.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"unauthorized: token expired","code":"unauthorized"}}' });
      chat.enqueue({ body: new Uint8Array(readFileSync(new URL('../../fixtures/copilot/text-answer.sse', import.meta.url))) });
      const failed = await collectEvents(model.stream(request, new AbortController().signal));
      const error = (failed.at(-1) as { type: 'error'; error: ProviderError }).error;
      expect({ kind: error.kind, status: error.status, message: error.message }).toEqual({
        kind: 'auth',
        status: 401,
        message: 'copilot 401: unauthorized: token expired (Copilot refused its token; the next request gets a new one; if this repeats, run `agentd login copilot` again or check that the seat may use this model)',
      });
      const answered = await collectEvents(model.stream(request, new AbortController().signal));
      expect(answered.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } });
      expect(github.exchanges()).toHaveLength(2);
      expect(chat.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tid=copilot-0', 'Bearer tid=copilot-1']);
    } finally {
      await github.close();
      await chat.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
