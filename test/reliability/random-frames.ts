import type { SeededRandom } from '../support/seeded-random.js';

/** What the daemon must do with one frame. */
export type FrameExpectation =
  /** An error answer with one of these codes, echoing `id` (null when the id could not be read). */
  | { answer: 'error'; id: string | number | null; codes: number[] }
  /** A well-formed request of a real method: any answer (result or error) with its id. */
  | { answer: 'any'; id: string | number }
  /** A notification or a stray response: no answer at all. */
  | { answer: 'none' };

export interface RandomFrame {
  /** The message body, before framing (never contains a raw LF, so it fits NDJSON). */
  body: Buffer;
  expect: FrameExpectation;
  /** What kind of frame it is, for failure messages. */
  kind: string;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/** Params of the wrong type for real client → daemon methods (each is refused by its schema). */
const WRONG_PARAMS: Array<[string, unknown]> = [
  ['initialize', { protocolVersion: 'one' }],
  ['session/new', { cwd: 5, mcpServers: [] }],
  ['session/new', { cwd: '/tmp', mcpServers: 'none' }],
  ['session/load', { sessionId: 5, cwd: '/tmp', mcpServers: [] }],
  ['session/prompt', { sessionId: 'x', prompt: 'text' }],
  ['session/prompt', { sessionId: 'x', prompt: [{ type: 'text', text: 42 }] }],
  ['session/steer', { sessionId: 7 }],
  ['session/set_mode', { sessionId: 's', modeId: 5 }],
  ['session/delete', { sessionId: [] }],
  ['tools/register', { tools: 'x' }],
  ['tools/unregister', { names: 5 }],
  ['schedules/add', { name: 5 }],
];

/** Requests to real methods that must be answered one way or the other. */
const REAL_REQUESTS: Array<[string, unknown]> = [
  ['session/list', {}],
  ['tools/list', {}],
  ['schedules/list', {}],
  ['initialize', { protocolVersion: 1 }],
];

/**
 * Generates malformed and odd frames, each with the answer the protocol promises
 * (PROTOCOL.md "Framing" and protocol/jsonrpc.ts ErrorCodeDocs). Ids are unique per
 * generator so answers can be matched to frames.
 */
export function createFrameGenerator(random: SeededRandom): () => RandomFrame {
  let counter = 0;
  const freshId = (): number | string => {
    counter += 1;
    return random.next() < 0.5 ? counter : `id-${counter}`;
  };
  const json = (message: unknown): Buffer => Buffer.from(JSON.stringify(message), 'utf8');
  const request = (id: number | string, method: string, params: unknown): Buffer => json({ jsonrpc: '2.0', id, method, params });

  const kinds: Array<() => RandomFrame> = [
    // A request cut short: no proper prefix of a JSON object is valid JSON.
    () => {
      const whole = request(freshId(), random.pick(REAL_REQUESTS)[0], { pad: 'x'.repeat(random.int(0, 40)) });
      return { kind: 'truncated json', body: whole.subarray(0, random.int(1, whole.length - 1)), expect: { answer: 'error', id: null, codes: [PARSE_ERROR] } };
    },
    // Bytes that are not UTF-8 (0xff never occurs in UTF-8) and not JSON.
    () => {
      const noise = random.bytes(random.int(1, 200)).filter((b) => b !== 0x0a);
      return { kind: 'garbage bytes', body: Buffer.concat([Buffer.from([0xff]), noise]), expect: { answer: 'error', id: null, codes: [PARSE_ERROR] } };
    },
    // Invalid UTF-8 inside the method name: decoded as U+FFFD, so no such method.
    () => {
      const id = freshId();
      const body = Buffer.concat([
        Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"session/li`),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
        Buffer.from('st","params":{}}'),
      ]);
      return { kind: 'invalid utf-8 in method', body, expect: { answer: 'error', id, codes: [METHOD_NOT_FOUND] } };
    },
    // Invalid UTF-8 inside a string param of a real method: the daemon answers, whatever it decides.
    () => {
      const id = freshId();
      const body = Buffer.concat([
        Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"session/list","params":{"cwd":"/tmp/`),
        random.bytes(random.int(1, 8)).map((b) => (b < 0x80 ? b | 0x80 : b)),
        Buffer.from('"}}'),
      ]);
      return { kind: 'invalid utf-8 in params', body, expect: { answer: 'any', id } };
    },
    () => {
      const id = freshId();
      const jsonrpc = random.pick<unknown>(['1.0', '2', 2, 2.0, null, '2.0 ', undefined]);
      return { kind: `jsonrpc ${JSON.stringify(jsonrpc)}`, body: json({ jsonrpc, id, method: 'session/list', params: {} }), expect: { answer: 'error', id, codes: [INVALID_REQUEST] } };
    },
    () => {
      const id = random.pick<unknown>([{}, [], 1.5, true, null, { deep: [[[1]]] }]);
      return { kind: `bad id ${JSON.stringify(id)}`, body: json({ jsonrpc: '2.0', id, method: 'session/list', params: {} }), expect: { answer: 'error', id: null, codes: [INVALID_REQUEST] } };
    },
    // Huge ids are still ids: a 1e30-scale integer, and a long string.
    () => {
      counter += 1;
      const text = random.next() < 0.5 ? `${counter}${'0'.repeat(30)}` : JSON.stringify(`${counter}-${'i'.repeat(random.int(100, 1000))}`);
      const [method, params] = random.pick(REAL_REQUESTS);
      const body = Buffer.from(`{"jsonrpc":"2.0","id":${text},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`);
      return { kind: 'huge id', body, expect: { answer: 'any', id: JSON.parse(text) as number | string } };
    },
    () => {
      const id = freshId();
      return { kind: 'unknown method', body: request(id, `session/${random.pick(['frobnicate', 'PROMPT', '', 'prompt/x'])}`, {}), expect: { answer: 'error', id, codes: [METHOD_NOT_FOUND] } };
    },
    () => {
      const id = freshId();
      const [method, params] = random.pick(WRONG_PARAMS);
      return { kind: `wrong params for ${method}`, body: request(id, method, params), expect: { answer: 'error', id, codes: [INVALID_PARAMS] } };
    },
    // Params that are not an object at all, for a real method.
    () => {
      const id = freshId();
      const [method] = random.pick(WRONG_PARAMS);
      const params = random.pick<unknown>([42, 'text', true, [1, 2, 3]]);
      return { kind: `scalar params for ${method}`, body: request(id, method, params), expect: { answer: 'error', id, codes: [INVALID_PARAMS] } };
    },
    // Deep nesting: as params (not an object: refused) and inside an open `_meta` (accepted or refused, but answered).
    () => {
      const id = freshId();
      const depth = random.int(50, 400);
      const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const body = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"session/list","params":${nested}}`);
      return { kind: `params nested ${depth} deep`, body, expect: { answer: 'error', id, codes: [INVALID_PARAMS] } };
    },
    () => {
      const id = freshId();
      const depth = random.int(50, 250);
      const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const body = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"session/list","params":{"_meta":${nested}}}`);
      return { kind: `_meta nested ${depth} deep`, body, expect: { answer: 'any', id } };
    },
    () => ({ kind: 'not an object', body: Buffer.from(random.pick(['42', '"text"', 'null', 'true', '[]', '[{"jsonrpc":"2.0","id":1,"method":"session/list"}]'])), expect: { answer: 'error', id: null, codes: [INVALID_REQUEST] } }),
    () => {
      const id = freshId();
      return { kind: 'neither request nor response', body: json({ jsonrpc: '2.0', id }), expect: { answer: 'error', id, codes: [INVALID_REQUEST] } };
    },
    // A response to a request the daemon never sent, and notifications: nothing to answer.
    () => ({ kind: 'stray response', body: json({ jsonrpc: '2.0', id: `stray-${(counter += 1)}`, result: { ok: true } }), expect: { answer: 'none' } }),
    () => ({
      kind: 'notification',
      body: json({ jsonrpc: '2.0', method: random.pick(['session/cancel', 'no/such', '$/cancel_request', 'session/update']), params: random.pick<unknown>([{}, { sessionId: 5 }, { requestId: 'none' }, []]) }),
      expect: { answer: 'none' },
    }),
    () => {
      const id = freshId();
      const [method, params] = random.pick(REAL_REQUESTS);
      return { kind: `real ${method}`, body: request(id, method, params), expect: { answer: 'any', id } };
    },
  ];
  return () => random.pick(kinds)();
}

/** The frame in NDJSON or LSP framing. */
export function frameBytes(body: Buffer, framing: 'ndjson' | 'content-length'): Buffer {
  if (framing === 'ndjson') return Buffer.concat([body, Buffer.from('\n')]);
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}
