import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../../src/config/agentd-paths.js';
import { checkSandbox } from '../../../src/cli/doctor/check-sandbox.js';
import { detectSandbox } from '../../../src/tools/sandbox/detect-sandbox.js';
import { buildSandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import { BUBBLEWRAP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

// bubblewrap works on the machines the tests run on (see .ci/run).
describe('checkSandbox', () => {
  afterAll(async () => {
    // Leave the process-wide cache describing the real bwrap again.
    await detectSandbox({ refresh: true });
  });

  it.skipIf(!hasBubblewrap)('is ok when bubblewrap can build the sandbox, and mentions network allowed by config', async () => {
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

  it.skipIf(!hasBubblewrap)('lists what the sandbox hides here, the environment policy, and warns about a provider key in sandbox.env', async () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-home-')));
    try {
      fs.mkdirSync(path.join(home, '.ssh'));
      fs.writeFileSync(path.join(home, '.netrc'), 'machine x password y\n');
      fs.mkdirSync(path.join(home, '.config', 'agentd'), { recursive: true });
      const env = { HOME: home, XDG_RUNTIME_DIR: path.join(home, 'run'), PATH: '/usr/bin' };
      fs.mkdirSync(env.XDG_RUNTIME_DIR);
      const { policy, warnings } = buildSandboxPolicy({
        paths: resolveAgentdPaths(env),
        config: { sandbox: { env: ['JAVA_HOME', 'WORK_KEY'], denyRead: ['~/notes'] }, providers: { work: { apiKeyEnv: 'WORK_KEY' } } },
        env,
      });
      const check = await checkSandbox({ bwrapPath: 'bwrap', policy, policyWarnings: warnings, home });
      const lines = check.detail.split('\n');
      expect(lines).toContain("hides agentd's own files: ~/.config/agentd");
      expect(lines).toContain('hides runtime dir: ~/run');
      expect(lines).toContain('hides credentials: ~/.ssh, ~/.netrc');
      expect(lines.find((line) => line.startsWith('hides sockets:'))).toContain('/run');
      expect(lines).toContain('environment: only PATH, HOME, USER, LOGNAME, SHELL, LANG, LANGUAGE, LC_*, TERM, TZ, plus JAVA_HOME, WORK_KEY (sandbox.env); provider API key variables never pass');
      expect(lines).toContain('network: none');
      expect(check.status).toBe('warn');
      expect(check.detail).toContain('sandbox.env lists "WORK_KEY", but WORK_KEY holds a provider API key');
      expect(check.fix).toContain('sandbox.env');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
