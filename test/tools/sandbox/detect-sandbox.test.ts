import { describe, expect, it } from 'vitest';
import { describeSandbox, detectSandbox } from '../../../src/tools/sandbox/detect-sandbox.js';
import { BUBBLEWRAP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

describe('detectSandbox', () => {
  it.skipIf(!hasBubblewrap)('finds a working bubblewrap on this machine and caches the answer', async () => {
    const first = detectSandbox({ refresh: true });
    expect(detectSandbox()).toBe(first);
    expect(await first).toEqual({ mode: 'bubblewrap' });
  });

  it('reports a missing bwrap with the install command', async () => {
    const info = await detectSandbox({ bwrapPath: '/nonexistent/bwrap', refresh: true });
    expect(info.mode).toBe('none');
    expect(info.reason).toContain('apt-get install bubblewrap');
  });

  it('reports a bwrap that cannot build the sandbox', async () => {
    const info = await detectSandbox({ bwrapPath: '/bin/false', refresh: true });
    expect(info).toEqual({
      mode: 'none',
      reason: 'bwrap cannot create a sandbox here (exit status 1); unprivileged user namespaces may be disabled',
    });
    await detectSandbox({ refresh: true });
  });

  it('describes the sandbox for agentd doctor', () => {
    expect(describeSandbox({ mode: 'bubblewrap' })).toMatch(/^bash sandbox: bubblewrap/);
    expect(describeSandbox({ mode: 'none', reason: 'bwrap missing' })).toBe(
      'bash sandbox: none — bwrap missing; each command needs explicit permission',
    );
  });
});
