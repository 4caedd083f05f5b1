import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { absentIfNull } from '../../src/providers/absent-if-null.js';
import { schemaByType } from '../../src/providers/schema-by-type.js';

const item = schemaByType(
  { call: z.object({ type: z.literal('call'), name: absentIfNull(z.string()) }) },
  z.looseObject({ type: z.string() }).transform((value) => ({ type: 'other' as const, itemType: value.type })),
);
const event = z.object({ item });

describe('schemaByType', () => {
  it('checks an object of a listed type against its case alone, naming the wrong field by its path', () => {
    expect(event.parse({ item: { type: 'call', name: 'f', extra: { any: 1 } } })).toEqual({ item: { type: 'call', name: 'f' } });
    const wrong = event.safeParse({ item: { type: 'call', name: 5 } });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[['item', 'name'], 'Invalid input: expected string, received number']]);
  });

  it('passes an object of any other type to the fallback, whatever its fields', () => {
    expect(event.parse({ item: { type: 'tool_search_call', name: { not: 'a string' }, call_id: null, arguments: {} } })).toEqual({
      item: { type: 'other', itemType: 'tool_search_call' },
    });
  });

  it('fails on an object without a string type at the type, and on anything else at the value', () => {
    for (const [value, path] of [
      [{ type: 5 }, ['item', 'type']],
      [{}, ['item', 'type']],
      ['call', ['item']],
      [null, ['item']],
      [[], ['item']],
    ] as const) {
      const checked = event.safeParse({ item: value });
      expect(checked.success, JSON.stringify(value)).toBe(false);
      expect(checked.error?.issues[0]?.path).toEqual(path);
    }
  });
});

describe('absentIfNull', () => {
  it('reads null and a missing field as absent and checks any other value', () => {
    const schema = z.object({ reason: absentIfNull(z.string()) });
    expect(schema.parse({ reason: null })).toEqual({ reason: undefined });
    expect(schema.parse({})).toEqual({ reason: undefined });
    expect(schema.parse({ reason: 'stop' })).toEqual({ reason: 'stop' });
    expect(schema.safeParse({ reason: 1 }).success).toBe(false);
  });
});
