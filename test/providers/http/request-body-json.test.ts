import { describe, expect, it } from 'vitest';
import { rememberWireItem, stringifyRequestBody } from '../../../src/providers/http/request-body-json.js';

describe('stringifyRequestBody', () => {
  it('writes what JSON.stringify writes, remembered items, undefined members, holes and toJSON included', () => {
    const remembered = rememberWireItem({ role: 'tool', content: 'é "quoted" \\ \u2028', extra: undefined });
    const bodies: unknown[] = [
      { model: 'm', messages: [{ role: 'system', content: 's' }, remembered, remembered], stream: true, gone: undefined, fn: () => 1 },
      { messages: [remembered, undefined, () => 1, null, 3, 'x', [remembered]], tools: [], max_tokens: 5, nested: { messages: [remembered] } },
      // eslint-disable-next-line no-sparse-arrays
      { messages: [remembered, , remembered], when: new Date(0), big: 1e21, neg: -0 },
      { messages: Object.assign([remembered], { toJSON: () => 'array toJSON' }) },
      { toJSON: () => ({ replaced: true }), messages: [remembered] },
      [remembered, 1],
      'text',
      undefined,
      Object.assign(Object.create({ inherited: 1 }) as object, { own: [remembered] }),
    ];
    for (const body of bodies) expect(stringifyRequestBody(body)).toBe(JSON.stringify(body));
  });

  it('gives the same text for a remembered item on every request, as for the same item never remembered', () => {
    const item = rememberWireItem({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] });
    const fresh = structuredClone(item);
    const first = stringifyRequestBody({ messages: [item] });
    expect(stringifyRequestBody({ messages: [item, item] })).toBe(JSON.stringify({ messages: [fresh, fresh] }));
    expect(first).toBe(JSON.stringify({ messages: [fresh] }));
  });
});
