import { describe, expect, it } from 'vitest';
import { checkNodeVersion, compareVersions, parseVersion } from '../../../src/cli/doctor/check-node-version.js';

describe('checkNodeVersion', () => {
  it('accepts 20.18.0 and newer, including the running Node.js', () => {
    expect(checkNodeVersion('20.18.0')).toEqual({ id: 'node', title: 'Node.js', status: 'ok', detail: 'v20.18.0 (needs 20.18.0 or newer)' });
    expect(checkNodeVersion('22.1.0').status).toBe('ok');
    expect(checkNodeVersion().status).toBe('ok');
  });

  it('fails an older Node.js with the version needed and how to get it', () => {
    const check = checkNodeVersion('20.17.9');
    expect(check.status).toBe('fail');
    expect(check.detail).toBe('v20.17.9 is too old: agentd needs 20.18.0 or newer');
    expect(check.fix).toContain('install Node.js 20.18.0 or newer');
    expect(checkNodeVersion('18.20.4').status).toBe('fail');
  });

  it('fails a version it cannot read', () => {
    expect(checkNodeVersion('banana')).toMatchObject({ status: 'fail', detail: 'cannot read the Node.js version "banana"' });
  });

  it('parses and compares versions numerically', () => {
    expect(parseVersion('v20.9.1')).toEqual([20, 9, 1]);
    expect(parseVersion('13.0.0 (rev af6b6c543b)')).toEqual([13, 0, 0]);
    expect(compareVersions([20, 9, 0], [20, 18, 0])).toBeLessThan(0);
    expect(compareVersions([20, 18, 0], [20, 18, 0])).toBe(0);
  });
});
