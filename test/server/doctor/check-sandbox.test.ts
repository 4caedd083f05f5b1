import { afterAll, describe, expect, it } from 'vitest';
import { checkSandbox } from '../../../src/server/doctor/check-sandbox.js';
import { detectSandbox } from '../../../src/tools/sandbox/detect-sandbox.js';

// bubblewrap works on the machines the tests run on (see .ci/run).
describe('checkSandbox', () => {
  afterAll(async () => {
    // Leave the process-wide cache describing the real bwrap again.
    await detectSandbox({ refresh: true });
  });

  it('is ok when bubblewrap can build the sandbox, and mentions network allowed by config', async () => {
    const check = await checkSandbox();
    expect(check.status).toBe('ok');
    expect(check.detail).toMatch(/^bash sandbox: bubblewrap/);
    expect((await checkSandbox({ allowNetwork: true })).detail).toMatch(/network allowed by config \(sandbox\.network\)$/);
  });

  it('warns with the install command when bwrap is missing', async () => {
    const check = await checkSandbox({ bwrapPath: '/nonexistent/bwrap' });
    expect(check.status).toBe('warn');
    expect(check.detail).toContain('each command needs explicit permission');
    expect(check.fix).toContain('apt-get install bubblewrap');
  });

  it('warns with the user-namespace settings when bwrap cannot build the sandbox', async () => {
    const check = await checkSandbox({ bwrapPath: '/bin/false' });
    expect(check.status).toBe('warn');
    expect(check.detail).toContain('bwrap cannot create a sandbox here (exit status 1)');
    expect(check.fix).toContain('kernel.unprivileged_userns_clone=1');
  });
});
