import { describe, expect, it } from 'vitest';
import { checkJsonSchema } from '../../../src/tools/remote/check-json-schema.js';
import { contentBlocksToResult } from '../../../src/tools/remote/content-blocks-to-result.js';
import { resultToContentBlocks } from '../../../src/tools/remote/result-to-content-blocks.js';

describe('content block conversion', () => {
  it('round-trips text, image and text resources between ToolResult and the wire', () => {
    const wire = {
      content: [
        { type: 'text' as const, text: 'hello' },
        { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource' as const, resource: { uri: 'file:///n.md', text: '# N', mimeType: 'text/markdown' } },
      ],
      isError: true,
    };
    const result = contentBlocksToResult(wire.content, true);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource', uri: 'file:///n.md', text: '# N', mimeType: 'text/markdown' },
      ],
      isError: true,
    });
    expect(resultToContentBlocks(result)).toEqual(wire);
    expect(resultToContentBlocks({ content: [] })).toEqual({ content: [], isError: false });
  });
});

describe('checkJsonSchema', () => {
  it('accepts valid draft-07 and 2020-12 schemas', () => {
    expect(checkJsonSchema({ type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'] })).toEqual([]);
    expect(
      checkJsonSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', prefixItems: [{ type: 'string' }], $defs: { x: { type: 'number' } } }),
    ).toEqual([]);
  });

  it('names the field of each problem', () => {
    expect(checkJsonSchema({ type: 'object', required: 'a' })).toEqual(['required: must be array']);
    expect(checkJsonSchema({ type: 'object', properties: { n: { minimum: 'one' } } })).toEqual(['properties.n.minimum: must be number']);
    // 2020-12 keywords are checked by that dialect's meta-schema.
    expect(checkJsonSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', prefixItems: [] })).toEqual([
      'prefixItems: must NOT have fewer than 1 items',
    ]);
  });
});
