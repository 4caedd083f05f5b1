import { describe, expect, it } from 'vitest';
import { FrontMatterError, parseFrontMatter } from '../../src/config/parse-front-matter.js';

describe('parseFrontMatter', () => {
  it('splits YAML front matter from the body', () => {
    expect(parseFrontMatter('---\ndescription: Hi\ntools: [a, b]\n---\n\nBody text.\n')).toEqual({
      fields: { description: 'Hi', tools: ['a', 'b'] },
      body: 'Body text.',
    });
  });

  it('handles a BOM, CRLF, an empty front matter and a file without one', () => {
    expect(parseFrontMatter('\uFEFF---\r\nmodel: x/y\r\n---\r\nBody\r\n')).toEqual({ fields: { model: 'x/y' }, body: 'Body' });
    expect(parseFrontMatter('---\n---\nBody')).toEqual({ fields: {}, body: 'Body' });
    expect(parseFrontMatter('Just a prompt.\n')).toEqual({ fields: {}, body: 'Just a prompt.' });
  });

  it('reports YAML errors with their line in the file', () => {
    let error: unknown;
    try {
      parseFrontMatter('---\na: 1\nb: [1,\n---\nbody');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FrontMatterError);
    expect((error as FrontMatterError).message).toMatch(/^invalid YAML front matter: /);
    expect((error as FrontMatterError).line).toBeGreaterThanOrEqual(3);
  });

  it('rejects front matter that is not a mapping', () => {
    expect(() => parseFrontMatter('---\njust a string\n---\nbody')).toThrow('must be a YAML mapping');
  });
});
