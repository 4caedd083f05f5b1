import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';

describe('session/new connects to the model server ahead of the first prompt', () => {
  let server: http.Server;
  let url: string;
  let connections: number;
  let requests: number;
  let connected: Promise<void>;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;

  beforeEach(async () => {
    connections = 0;
    requests = 0;
    server = http.createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(chatCompletionSse(['Hello']));
      });
    });
    connected = new Promise((resolve) => server.on('connection', () => void (connections++, resolve())));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    await daemon.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function start(baseUrl: string): Promise<void> {
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${baseUrl}/v1`, maxRetries: 0 } } });
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
  }

  it('opens the connection after answering, sends no request, and the prompt uses it', async () => {
    await start(url);
    const { sessionId } = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await connected;
    expect(requests).toBe(0);
    const answer = await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(requests).toBe(1);
    expect(connections).toBe(1);
  });

  it('answers session/new as usual when the model server refuses connections, and the prompt reports its own connect failing', async () => {
    const refused = url;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    server = http.createServer();
    await start(refused);
    const created = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    expect(created.sessionId).toEqual(expect.any(String));
    const answer = await daemon.peer.requestUnchecked('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    // The prompt's own connect fails and says so, as it would with no connection made ahead.
    expect(answer.error?.data).toMatchObject({ kind: 'network', provider: 'local' });
    expect(answer.error?.message).toContain('ECONNREFUSED');
  });
});
