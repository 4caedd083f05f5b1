import { describe, expect, it } from 'vitest';
import { GeminiArgsAssembler, parseJsonPath } from '../../../src/providers/gemini/gemini-args-assembler.js';
import type { GeminiPartialArg } from '../../../src/providers/gemini/gemini-types.js';

function assemble(...chunks: GeminiPartialArg[][]): GeminiArgsAssembler {
  const assembler = new GeminiArgsAssembler();
  for (const chunk of chunks) assembler.add(chunk);
  return assembler;
}

describe('parseJsonPath', () => {
  it('reads dotted names, indexes and quoted names', () => {
    expect(parseJsonPath('$.recipe.ingredients[0].name')).toEqual(['recipe', 'ingredients', 0, 'name']);
    expect(parseJsonPath(`$['a.b']["c\\"d"]['it\\'s'][12]`)).toEqual(['a.b', 'c"d', "it's", 12]);
    expect(parseJsonPath('$.max-results')).toEqual(['max-results']);
    expect(parseJsonPath('$')).toEqual([]);
  });

  it('refuses what is not a singular path', () => {
    for (const path of ['recipe', '$..name', '$.a[*]', '$.a[-1]', '$.a[01]', '$[x]', "$['\\q']", '$.']) expect(parseJsonPath(path)).toBeUndefined();
  });
});

describe('GeminiArgsAssembler', () => {
  it('joins the pieces of a string only while the previous piece said it continues', () => {
    const a = assemble(
      [{ jsonPath: '$.text', stringValue: 'Hel', willContinue: true }],
      [{ jsonPath: '$.text', stringValue: 'lo', willContinue: true }],
      [{ jsonPath: '$.text', stringValue: '' }],
      // A closed string set again is replaced, not extended.
      [{ jsonPath: '$.other', stringValue: 'a' }],
      [{ jsonPath: '$.other', stringValue: 'b' }],
    );
    expect(a.args).toEqual({ text: 'Hello', other: 'b' });
    expect(a.error).toBeUndefined();
    expect(a.stringOpen).toBe(false);
  });

  it('builds nested objects and arrays with every value type', () => {
    const a = assemble([
      { jsonPath: '$.edits[0].old', stringValue: 'x' },
      { jsonPath: '$.edits[1].old', stringValue: 'y' },
      { jsonPath: '$.opts.dry', boolValue: false },
      { jsonPath: '$.opts.n', numberValue: 2.5 },
      { jsonPath: '$.none', nullValue: 'NULL_VALUE' },
      { jsonPath: '$.matrix[0][1]', numberValue: 7 },
    ]);
    expect(JSON.stringify(a.args)).toBe('{"edits":[{"old":"x"},{"old":"y"}],"opts":{"dry":false,"n":2.5},"none":null,"matrix":[[null,7]]}');
  });

  it('keeps a member named __proto__ as data', () => {
    const a = assemble([{ jsonPath: "$['__proto__'].polluted", boolValue: true }]);
    expect(JSON.stringify(a.args)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports the first leaf it cannot place and keeps the rest', () => {
    const a = assemble(
      [{ jsonPath: '$.a', stringValue: 's' }],
      [{ jsonPath: '$.a.b', numberValue: 1 }],
      [{ jsonPath: '$.list[0]', numberValue: 1 }],
      [{ jsonPath: '$.list.x', numberValue: 2 }],
      [{ jsonPath: '$.c' }],
    );
    expect(a.error).toBe('the streamed argument path "$.a.b" runs through a value that is not an object');
    expect(a.args).toEqual({ a: 's', list: [1] });
    expect(assemble([{ jsonPath: '$.list[0]', numberValue: 1 }, { jsonPath: '$.list.x', numberValue: 2 }]).error).toBe(
      'the streamed argument path "$.list.x" does not fit the arguments sent before it',
    );
    expect(assemble([{ jsonPath: '$.c' }]).error).toBe('a streamed argument at "$.c" carries no value');
  });
});
