import { describe, expect, it } from 'vitest';
import { encodeRequestBody, rememberWireItem } from '../../../src/providers/http/request-body-json.js';

/** The body as the socket gets it, released at once as a request written at once is. */
function sent(body: unknown): Buffer {
  const encoded = encodeRequestBody(body);
  const bytes = Buffer.concat(encoded.chunks);
  expect(bytes.length).toBe(encoded.length);
  encoded.release();
  return bytes;
}

/** What the body must be, byte for byte: JSON.stringify's text in UTF-8. */
function expected(body: unknown): Buffer {
  return Buffer.from(JSON.stringify(body));
}

function message(n: number, text = `message ${n}`): object {
  return rememberWireItem({ role: n % 2 ? 'assistant' : 'user', content: text });
}

describe('encodeRequestBody', () => {
  it('gives the bytes of JSON.stringify, remembered items, undefined members, holes and toJSON included', () => {
    const remembered = rememberWireItem({ role: 'tool', content: 'é "quoted" \\ \u2028', extra: undefined });
    const bodies: unknown[] = [
      { model: 'm', messages: [{ role: 'system', content: 's' }, remembered, remembered], stream: true, gone: undefined, fn: () => 1 },
      { messages: [remembered, undefined, () => 1, null, 3, 'x', [remembered]], tools: [], max_tokens: 5, nested: { messages: [remembered] } },
      // eslint-disable-next-line no-sparse-arrays
      { messages: [remembered, , remembered], when: new Date(0), big: 1e21, neg: -0 },
      { messages: Object.assign([remembered], { toJSON: () => 'array toJSON' }) },
      { toJSON: () => ({ replaced: true }), messages: [remembered] },
      { messages: [] },
      { messages: [remembered] },
      { messages: [undefined, remembered, 'between', remembered, remembered, 7] },
      [remembered, 1],
      'text',
      Object.assign(Object.create({ inherited: 1 }) as object, { own: [remembered] }),
    ];
    for (const body of bodies) expect(sent(body).equals(expected(body))).toBe(true);
  });

  it('writes a remembered item whose toJSON gives nothing as null, as JSON.stringify does in an array', () => {
    const empty = rememberWireItem({ toJSON: () => undefined });
    const body = { messages: [empty, message(1), empty] };
    expect(sent(body).toString()).toBe(JSON.stringify(body));
    expect(sent(body).toString()).toContain('[null,');
  });

  it('refuses a body with no JSON at all, saying why', () => {
    expect(() => sent(undefined)).toThrow(/request body must have JSON/);
    expect(() => sent(() => 1)).toThrow(/request body must have JSON/);
  });

  it('gives the same bytes for a remembered item on every request, as for the same item never remembered', () => {
    const item = rememberWireItem({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] });
    const fresh = structuredClone(item);
    const first = sent({ messages: [item] });
    expect(sent({ messages: [item, item] }).equals(expected({ messages: [fresh, fresh] }))).toBe(true);
    expect(first.equals(expected({ messages: [fresh] }))).toBe(true);
  });

  it('encodes text beyond ASCII as UTF-8 and lone surrogates as JSON escapes, in remembered items and between them', () => {
    const texts = ['ünïcode', '日本語', 'emoji 😀 pair', 'lone high \ud83d end', 'lone low \ude00 end', '\u2028\u2029', 'nul \u0000 tab \t', '"\\/'];
    const items = texts.map((text, n) => message(n, text));
    const body = { model: 'mödel 😀', messages: [{ role: 'system', content: 'sÿstem \ud800' }, ...items, { role: 'user', content: 'new 😀 \udfff' }] };
    const bytes = sent(body);
    expect(bytes.equals(expected(body))).toBe(true);
    expect(bytes.toString()).toContain('\\ud83d');
    expect(bytes.toString()).toContain('😀');
    // Encoded once, the same bytes again on the next request.
    expect(sent(body).equals(bytes)).toBe(true);
  });

  it('follows a history request after request: grown, changed in the middle, compacted, its budget boundary moved', () => {
    const history = Array.from({ length: 50 }, (_, n) => message(n));
    const requests: object[][] = [];
    // Grown by a turn at a time.
    for (let n = 50; n < 56; n++) requests.push([...history, ...(requests.at(-1)?.slice(history.length) ?? []), message(n)]);
    // One message in the middle replaced by another object (a budgeted tool result), then put back.
    const changed = [...requests.at(-1)!];
    changed[20] = rememberWireItem({ role: 'tool', tool_call_id: 'c20', content: '[omitted: 2,000 characters]' });
    requests.push(changed, requests.at(-1)!);
    // The budget boundary moving: each request a later run of results is replaced.
    for (let boundary = 10; boundary < 40; boundary += 7) {
      requests.push(changed.map((item, n) => (n < boundary && n % 3 === 0 ? rememberWireItem({ role: 'tool', tool_call_id: `c${n}`, content: `[omitted before ${boundary}]` }) : item)));
    }
    // Compacted: a summary first, then only the newest messages, then growing again.
    const summary = rememberWireItem({ role: 'user', content: '<summary of the earlier conversation>…</summary>' });
    const kept = changed.slice(-10);
    requests.push([summary, ...kept], [summary, ...kept, message(90)], [...kept]);
    // Items not remembered among remembered ones, as a request's own new messages are.
    requests.push([{ role: 'system', content: 'sys' }, ...kept, { role: 'user', content: 'not remembered' }, summary]);
    for (const messages of requests) {
      const body = { model: 'm', messages, stream: true };
      expect(sent(body).equals(Buffer.from(JSON.stringify(structuredClone(body))))).toBe(true);
    }
  });

  it('keeps two series apart, interleaved, and one series used twice in a body', () => {
    const a = Array.from({ length: 30 }, (_, n) => message(n, `a ${n} ü`));
    const b = Array.from({ length: 30 }, (_, n) => message(n, `b ${n} 😀`));
    const bodies: object[] = [];
    for (let n = 1; n <= 30; n += 4) bodies.push({ messages: a.slice(0, n) }, { messages: b.slice(0, n) });
    // The same series in two members of one body, the second shorter then longer than the first.
    bodies.push({ messages: a, again: a.slice(0, 10) }, { messages: a.slice(0, 10), again: a }, { messages: [...a.slice(0, 5), ...b.slice(0, 3)], again: [...a.slice(0, 5), ...a.slice(20)] });
    bodies.push({ messages: a }, { messages: a, again: [...a.slice(0, 5), ...b.slice(0, 3)] });
    for (const body of bodies) expect(sent(body).toString()).toBe(JSON.stringify(structuredClone(body)));
  });

  it('leaves the bytes of a body not yet written as they were, while later bodies of its series change', () => {
    // Long enough for the run to be sent as it is, not copied: the body points into the run.
    const history = Array.from({ length: 400 }, (_, n) => message(n, `${n} `.repeat(60)));
    sent({ messages: history });
    const inFlight = encodeRequestBody({ messages: history });
    const expectedInFlight = expected({ messages: history });
    expect(inFlight.chunks.some((chunk) => chunk.length >= 64 * 1024)).toBe(true);
    // The next requests change the middle (a budgeted result) and the end, while the first is unwritten.
    const changed = [...history.slice(0, 200), message(9_001, 'budgeted'), ...history.slice(201)];
    expect(sent({ messages: changed }).equals(expected({ messages: changed }))).toBe(true);
    expect(sent({ messages: history.slice(0, 100) }).equals(expected({ messages: history.slice(0, 100) }))).toBe(true);
    expect(Buffer.concat(inFlight.chunks).equals(expectedInFlight)).toBe(true);
    inFlight.release();
    inFlight.release();
    // Released (twice: once counts): the run changes in place again, and stays right.
    expect(sent({ messages: changed }).equals(expected({ messages: changed }))).toBe(true);
    expect(sent({ messages: history }).equals(expected({ messages: history }))).toBe(true);
  });
});
