import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ripgrepPath } from '../../../src/tools/search/ripgrep-path.js';
import { RIPGREP, requireProgram } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

describe('ripgrepPath', () => {
  it.skipIf(!hasRipgrep)('finds an executable rg (the npm package is not installed here, so from PATH)', () => {
    const rg = ripgrepPath();
    expect(rg.endsWith('/rg')).toBe(true);
    expect(() => fs.accessSync(rg, fs.constants.X_OK)).not.toThrow();
  });
});

describe('ripgrepPath without rg', () => {
  it('names the install command', () => {
    expect(() => ripgrepPath({ PATH: '/nonexistent-dir' })).toThrow('apt-get install ripgrep');
  });
});
