import { describe, expect, it } from 'vitest';
import { protectedPathReason } from '../../../src/tools/permissions/protected-path.js';

describe('protectedPathReason', () => {
  it.each([
    ['/w/.git/config', '.git'],
    ['/w/.git', '.git'],
    ['/w/sub/.git/hooks/pre-commit', '.git'],
    ['/w/.agentd/agents/plan.md', '.agentd'],
    ['/w/.GIT/config', '.GIT'],
    ['/w/.Agentd/config.json', '.Agentd'],
  ])('%s is protected (inside %s)', (file, dir) => {
    expect(protectedPathReason([file])).toBe(
      `${file} is inside ${dir}, where a change can run code or change agentd's behaviour later; it is never written without asking`,
    );
  });

  it.each(['/w/.gitignore', '/w/.github/workflows/ci.yml', '/w/src/git/config.ts', '/w/.agentd-notes.md'])('%s is not protected', (file) => {
    expect(protectedPathReason([file])).toBeUndefined();
  });

  it('checks every spelling: a harmless name whose real path is in .git is protected', () => {
    expect(protectedPathReason(['/w/cfg', '/w/.git/config'])).toContain('/w/.git/config is inside .git');
  });
});
