import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { connectPeer } from '../support/daemon-process.js';
import { readThenAnswer } from '../support/read-then-answer-model.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import type { RpcPeer } from '../support/rpc-peer.js';

const SESSIONS = 50;
const CONNECTIONS = 10;
/** How long every session keeps prompting. */
const RUN_MS = 6_000;

function residentBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

describe('50 sessions running tool calls at once over one daemon', () => {
  let daemon: ClientDaemon;
  let model: ReplayServer;

  beforeAll(async () => {
    // Each request is answered from its own body, so concurrent sessions cannot get each other's answers.
    model = await startReplayServer({ respond: readThenAnswer({ file: 'notes.txt', delayMs: 2 }) });
    daemon = await startClientDaemon({ providers: { local: { type: 'openai-chat', baseUrl: `${model.url}/v1`, maxRetries: 0 } } });
  });

  afterAll(async () => {
    await daemon?.close();
    await model?.close();
  });

  it('loses no message: every turn is answered and stored in order, with the daemon memory bounded', { timeout: 60_000 }, async () => {
    writeFileSync(join(daemon.workspace, 'notes.txt'), 'buy milk\n');
    const peers: RpcPeer[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) {
      const peer = await connectPeer(daemon.socketPath);
      await peer.call('initialize', { protocolVersion: 1 });
      peers.push(peer);
    }
    const pid = daemon.daemon.child.pid!;
    const sessions = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, index) => {
        const peer = peers[index % CONNECTIONS]!;
        const { sessionId } = await peer.call('session/new', { cwd: daemon.workspace, mcpServers: [] });
        return { index, peer, sessionId: sessionId as string, prompts: [] as number[] };
      }),
    );

    const baseline = residentBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 50);
    const deadline = Date.now() + RUN_MS;
    try {
      await Promise.all(
        sessions.map(async (s) => {
          for (let k = 1; Date.now() < deadline; k += 1) {
            const n = (s.index + 1) * 10_000 + k;
            const reply = await s.peer.request('session/prompt', { sessionId: s.sessionId, prompt: [{ type: 'text', text: `prompt-${n}` }] }, 30_000);
            expect(reply.result, `session ${s.index} prompt-${n}: ${JSON.stringify(reply.error)}`).toEqual({ stopReason: 'end_turn' });
            s.prompts.push(n);
          }
        }),
      );
    } finally {
      clearInterval(sampler);
    }

    for (const s of sessions) {
      expect(s.peer.agentText(s.sessionId), `session ${s.index}: answers streamed`).toBe(s.prompts.map((n) => `Read it: answer-${n} (done)`).join(''));
    }
    // The store holds every message of every turn, in order: prompt, tool call, tool result, answer.
    const db = new Database(resolveAgentdPaths(daemon.env).databaseFile, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT role, content FROM messages WHERE session_id = ? ORDER BY seq');
      for (const s of sessions) {
        const stored = (rows.all(s.sessionId) as Array<{ role: string; content: string }>).map((r) => `${r.role}:${r.content.match(/\b(?:prompt|call|answer)-\d+\b/)?.[0]}`);
        const expected = s.prompts.flatMap((n) => [`user:prompt-${n}`, `assistant:call-${n}`, `tool:call-${n}`, `assistant:answer-${n}`]);
        expect(stored, `session ${s.index}`).toEqual(expected);
      }
    } finally {
      db.close();
    }
    const turns = sessions.reduce((sum, s) => sum + s.prompts.length, 0);
    process.stderr.write(`load: ${turns} turns in ${SESSIONS} sessions; daemon RSS ${baseline} before, ${peak} at most\n`);
    expect(sessions.every((s) => s.prompts.length >= 1)).toBe(true);
    expect(peak - baseline, `baseline ${baseline}, peak ${peak}`).toBeLessThan(300 * 1024 * 1024);
  });
});
