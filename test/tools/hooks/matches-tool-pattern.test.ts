import { describe, expect, it } from 'vitest';
import { matchesToolPattern } from '../../../src/tools/hooks/matches-tool-pattern.js';

describe('matchesToolPattern', () => {
  it('matches names exactly or with * wildcards; no list matches all', () => {
    expect(matchesToolPattern('bash', undefined)).toBe(true);
    expect(matchesToolPattern('bash', [])).toBe(false);
    expect(matchesToolPattern('bash', ['bash'])).toBe(true);
    expect(matchesToolPattern('bash2', ['bash'])).toBe(false);
    expect(matchesToolPattern('github__create_issue', ['github__*'])).toBe(true);
    expect(matchesToolPattern('fs__search', ['*__search', 'read'])).toBe(true);
    expect(matchesToolPattern('a.b', ['a*b'])).toBe(true);
    expect(matchesToolPattern('axb', ['a.b'])).toBe(false);
  });
});
