import { describe, expect, it } from 'vitest';
import { builtOnFirstUse } from '../../src/providers/built-on-first-use.js';

describe('a value built on its first use', () => {
  it('is not built until asked for, then built once and the same value given every time', () => {
    let builds = 0;
    const schemas = builtOnFirstUse(() => ({ built: ++builds }));
    expect(builds).toBe(0);
    const first = schemas();
    expect(schemas()).toBe(first);
    expect(builds).toBe(1);
  });

  it('keeps a value that is undefined or false, instead of building it again', () => {
    let builds = 0;
    const nothing = builtOnFirstUse(() => {
      builds++;
      return undefined;
    });
    nothing();
    nothing();
    expect(builds).toBe(1);
  });
});
