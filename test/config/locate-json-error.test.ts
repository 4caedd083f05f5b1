import { describe, expect, it } from 'vitest';
import { locateJsonError } from '../../src/config/locate-json-error.js';

describe('locateJsonError (jsonc-parser, strict JSON)', () => {
  it.each([
    ['{"a":}', 1, 6, 'expected a value'],
    ['{"a":1,}', 1, 8, 'trailing comma before "}"'],
    ['[1,2,]', 1, 6, 'trailing comma before "]"'],
    ['{"a" 1}', 1, 6, 'expected ":" after the property name'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'expected "," or "}" after the property value'],
    ['[1 2]', 1, 4, 'expected "," or "]" after the array element'],
    ['', 1, 1, 'unexpected end of file: expected a value'],
    ['{\n  "a": [1,', 2, 11, 'unexpected end of file'],
    ['"abc', 1, 5, 'unterminated string'],
    ['{} x', 1, 4, 'unexpected text after the end of the JSON document'],
    ['{"a":"x\ny"}', 1, 8, 'control character inside a string'],
    ["{'a': 1}", 1, 2, 'expected a property name in double quotes'],
    ["{\"a\": 'b'}", 1, 7, 'single quotes'],
    ['{"a": tru}', 1, 7, 'expected a value'],
    ['{"a": 01}', 1, 8, 'invalid number'],
    ['{"a": -}', 1, 7, 'invalid number'],
    ['{"a": "\\x"}', 1, 8, 'invalid escape'],
    ['{"a": "\\u12"}', 1, 8, 'invalid \\u escape'],
    ['{\n  // note\n  "a": 1\n}', 2, 3, 'comments are not allowed'],
    ['{"a": 1e}', 1, 7, 'invalid number'],
    ['{"a": NaN}', 1, 7, 'expected a value'],
    ['{"a": 1 /* x */}', 1, 9, 'comments are not allowed'],
  ])('%j fails at %i:%i', (text, line, column, message) => {
    const error = locateJsonError(text);
    expect(error).toMatchObject({ line, column });
    expect(error?.message).toContain(message);
    expect(() => JSON.parse(text)).toThrow();
  });

  it.each([
    '{}',
    '[]',
    '  {"a": [1, -2.5e+3, 0, true, false, null, "x\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"], "b": {"c": {}}}\r\n',
    '"just a string"',
    '0',
    '{"emoji": "😀", "é": 1}',
  ])('accepts valid JSON %j like JSON.parse does', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(locateJsonError(text)).toBeUndefined();
  });
});
