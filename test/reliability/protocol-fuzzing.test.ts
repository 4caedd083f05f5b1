import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { connectPeer, until } from '../support/daemon-process.js';
import { connectRaw, type RawSocketClient } from '../support/raw-socket-client.js';
import type { RpcPeer, WireMessage } from '../support/rpc-peer.js';
import { seededRandom, type SeededRandom } from '../support/seeded-random.js';
import { createFrameGenerator, frameBytes, type RandomFrame } from './random-frames.js';

/** Small, so an oversized frame is cheap to send; every generated frame stays well under it. */
const MAX_FRAME_BYTES = 4096;
const BATCHES = 60;
const FRAMES_PER_BATCH = 40;

type Framing = 'ndjson' | 'content-length';
/** How a batch ends: the client hangs up, or sends something after which the daemon must close. */
type Ending = 'hang-up' | 'oversized' | 'broken-header' | 'truncated-tail';

describe('one daemon fed thousands of malformed frames', () => {
  let daemon: ClientDaemon;
  let healthy: RpcPeer;

  beforeAll(async () => {
    daemon = await startClientDaemon({ server: { maxFrameBytes: MAX_FRAME_BYTES } });
    healthy = await connectPeer(daemon.socketPath);
    await healthy.call('initialize', { protocolVersion: 1 });
  });

  afterAll(async () => {
    await daemon?.close();
  });

  it('answers each with the right JSON-RPC error or closes that connection, and keeps serving another client', async () => {
    const random = seededRandom('protocol fuzzing');
    const nextFrame = createFrameGenerator(random);
    let sent = 0;
    for (let batch = 0; batch < BATCHES; batch += 1) {
      const framing: Framing = random.pick(['ndjson', 'content-length']);
      const ending: Ending = random.pick<Ending>(['hang-up', 'hang-up', 'oversized', 'truncated-tail', ...(framing === 'content-length' ? (['broken-header'] as const) : [])]);
      const frames = Array.from({ length: FRAMES_PER_BATCH }, nextFrame);
      const what = `batch ${batch} (${framing}, ending ${ending}, seed ${random.seed})`;
      const client = await connectRaw(daemon.socketPath);
      const bytes = Buffer.concat(frames.map((f) => frameBytes(f.body, framing)));
      await writeInPieces(client, bytes, random);
      sent += frames.length;

      // Every answer the frames call for arrives (the daemon handles a connection's frames in order).
      const expectedNullIds = frames.filter((f) => f.expect.answer === 'error' && f.expect.id === null).length;
      const expectedWithId = frames.filter((f) => f.expect.answer !== 'none').length - expectedNullIds;
      await until(
        () => nullIdAnswers(client).length >= expectedNullIds && idAnswers(client).length >= expectedWithId,
        10_000,
        `the answers of ${what}: got ${client.messages.length}, last ${JSON.stringify(client.messages.slice(-2)).slice(0, 400)}; frames ${frames.map((f) => f.kind).join(", ").slice(0, 600)}`,
      );
      checkAnswers(frames, client.messages, what);

      await endBatch(client, ending, framing, what);
      expect(daemon.daemon.child.exitCode, `daemon alive after ${what}`).toBeNull();
      expect((await healthy.call('session/list', {})).sessions, `healthy client after ${what}`).toEqual([]);
    }
    expect(sent).toBeGreaterThanOrEqual(2000);
    // A client arriving after all that is served as the first one was.
    const late = await connectPeer(daemon.socketPath);
    expect((await late.call('initialize', { protocolVersion: 1 })).protocolVersion).toBe(1);
    late.close();
  });

  it('reassembles a frame split at every byte, in both framings', async () => {
    for (const framing of ['ndjson', 'content-length'] as const) {
      const client = await connectRaw(daemon.socketPath);
      const frame = frameBytes(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'session/list', params: { cwd: '/tmp/ü€😀' } })), framing);
      for (let at = 1; at < frame.length; at += 1) {
        const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: at, method: 'session/list', params: { cwd: '/tmp/ü€😀' } }));
        const whole = frameBytes(body, framing);
        await client.write(whole.subarray(0, at));
        // Let the daemon read the first piece on its own before the rest arrives.
        await new Promise((resolve) => setTimeout(resolve, 1));
        await client.write(whole.subarray(at));
      }
      await until(() => client.messages.length >= frame.length - 1, 10_000, `${framing}: answers to every split (${client.messages.length})`);
      expect(client.messages.map((m) => m.id)).toEqual(Array.from({ length: frame.length - 1 }, (_, i) => i + 1));
      expect(client.messages.every((m) => Array.isArray(m.result?.sessions))).toBe(true);
      client.socket.destroy();
    }
  });
});

/** Writes the batch whole, frame by frame, byte by byte (first 600 bytes) or in random chunks. */
async function writeInPieces(client: RawSocketClient, bytes: Buffer, random: SeededRandom): Promise<void> {
  const mode = random.pick(['whole', 'bytewise-head', 'random-chunks']);
  if (mode === 'whole') return client.write(bytes);
  let at = 0;
  while (at < bytes.length) {
    const size = mode === 'bytewise-head' && at < 600 ? 1 : random.int(1, 512);
    await client.write(bytes.subarray(at, at + size));
    at += size;
  }
}

function nullIdAnswers(client: RawSocketClient): WireMessage[] {
  return client.messages.filter((m) => m.method === undefined && m.id === null);
}

function idAnswers(client: RawSocketClient): WireMessage[] {
  return client.messages.filter((m) => m.method === undefined && m.id !== null && m.id !== undefined);
}

function checkAnswers(frames: RandomFrame[], messages: WireMessage[], what: string): void {
  const answers = messages.filter((m) => m.method === undefined);
  // Answers without an id come in frame order: their codes line up with the frames that called for them.
  const expectedNull = frames.flatMap((f) => (f.expect.answer === 'error' && f.expect.id === null ? [{ kind: f.kind, codes: f.expect.codes }] : []));
  const gotNull = answers.filter((m) => m.id === null);
  expect(gotNull.length, `${what}: answers with id null`).toBe(expectedNull.length);
  expectedNull.forEach((e, i) => {
    expect(e.codes, `${what}: answer ${i} with id null, for a ${e.kind} frame: ${JSON.stringify(gotNull[i])}`).toContain(gotNull[i]!.error?.code);
  });
  for (const frame of frames) {
    const { expect: wanted } = frame;
    if (wanted.answer === 'none' || (wanted.answer === 'error' && wanted.id === null)) continue;
    const matching = answers.filter((m) => m.id === wanted.id);
    expect(matching, `${what}: one answer to the ${frame.kind} frame ${JSON.stringify(wanted.id).slice(0, 60)}`).toHaveLength(1);
    const [answer] = matching;
    if (wanted.answer === 'error') {
      expect(wanted.codes, `${what}: error code for the ${frame.kind} frame: ${JSON.stringify(answer)}`).toContain(answer!.error?.code);
      expect(answer!.error!.message, `${what}: an error says what went wrong`).not.toBe('');
    } else {
      expect(answer!.result !== undefined || answer!.error !== undefined, `${what}: ${frame.kind} answered`).toBe(true);
    }
  }
  const answeredIds = answers.filter((m) => m.id !== null).length;
  expect(answeredIds, `${what}: no answers to notifications or stray responses`).toBe(frames.filter((f) => f.expect.answer === 'any' || (f.expect.answer === 'error' && f.expect.id !== null)).length);
}

async function endBatch(client: RawSocketClient, ending: Ending, framing: Framing, what: string): Promise<void> {
  const before = client.messages.length;
  switch (ending) {
    case 'hang-up':
      client.socket.end();
      break;
    case 'oversized': {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'session/list', params: { pad: 'x'.repeat(MAX_FRAME_BYTES) } }));
      await client.write(frameBytes(body, framing));
      break;
    }
    case 'broken-header':
      await client.write('Content-Lenght: 12\r\nX-Other: 1\r\n\r\n{"jsonrpc":1}');
      break;
    case 'truncated-tail':
      await client.write(frameBytes(Buffer.from('{"jsonrpc":"2.0","id":"tail","method":"session/list","params":{}}'), framing).subarray(0, 30));
      client.socket.end();
      break;
  }
  await Promise.race([client.closed, until(() => false, 10_000, `the daemon to close the connection after ${what}`)]);
  const after = client.messages.slice(before);
  if (ending === 'oversized') {
    expect(after.map((m) => [m.id, m.error?.code]), `${what}: oversized frame`).toEqual([[null, -32011]]);
  } else if (ending === 'broken-header') {
    expect(after.map((m) => [m.id, m.error?.code]), `${what}: broken header`).toEqual([[null, -32700]]);
  } else {
    expect(after, `${what}: nothing answered after the client hung up`).toEqual([]);
  }
}
