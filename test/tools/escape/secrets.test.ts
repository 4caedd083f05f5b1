import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../tool-test-context.js';
import { makeSandboxFixture, SECRETS, type SandboxFixture } from './sandbox-fixture.js';
import { BUBBLEWRAP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

const ENV_SECRETS = [SECRETS.workKey, SECRETS.awsEnv, SECRETS.dbUrlPassword, SECRETS.openaiEnv];
const FILE_SECRETS = [SECRETS.ssh, SECRETS.aws, SECRETS.netrc, SECRETS.npmrc, SECRETS.denied];

/** F3: no key in the environment, no credential file readable, in any spelling. */
describe.skipIf(!hasBubblewrap).each([
  ['a workspace beside the home directory', false],
  ['the home directory as the workspace', true],
])('escape: secrets, with %s', (_name, workspaceIsHome) => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await makeSandboxFixture({ workspaceIsHome });
  });
  afterAll(async () => {
    await fx.cleanup();
  });

  it('[F3 secrets] env, printenv, /proc/self/environ and a file written from them show no key, token or credential URL', async () => {
    const since = Date.now();
    const result = await fx.bash('env; printenv; tr "\\0" "\\n" < /proc/self/environ; env > env-dump.txt; echo "[$WORK_KEY][$AWS_SECRET_ACCESS_KEY][$DATABASE_URL]"');
    const evidence = fx.evidence(result, since);
    for (const secret of ENV_SECRETS) expect(evidence).not.toContain(secret);
    expect(textOf(result)).toContain('[][][]');
    // The allowlist still passes what a shell needs.
    expect(textOf(result)).toContain(`HOME=${fx.home}`);
    expect(textOf(result)).toContain('LANG=C.UTF-8');
  });

  it('[F3 secrets] cannot read ~/.ssh, ~/.aws (a symlink to elsewhere), ~/.netrc, ~/.npmrc or a sandbox.denyRead folder', async () => {
    const since = Date.now();
    const result = await fx.bash(
      'cat ~/.ssh/id_rsa ~/.aws/credentials ~/.netrc ~/.npmrc ~/private/notes.txt; echo "[$(ls -A ~/.ssh)$(ls -A ~/.aws/)$(ls -A ~/private)]"; cp -r ~/.ssh stolen-ssh; tar cf stolen.tar ~/.netrc ~/.aws/ 2>&1 | head -1',
    );
    const evidence = fx.evidence(result, since);
    for (const secret of FILE_SECRETS) expect(evidence).not.toContain(secret);
    expect(textOf(result)).toContain('[]');
  });

  it('[F3 secrets] cannot read them through a symlink made in the workspace, /proc/self/root or .. spellings', async () => {
    const since = Date.now();
    const up = '/..'.repeat(fx.workspace.split('/').length - 1);
    const result = await fx.bash(
      [
        `ln -sf '${fx.home}/.ssh/id_rsa' key-link && cat key-link`,
        `ln -sfn '${fx.home}/.aws' aws-link && cat aws-link/credentials`,
        `cat '/proc/self/root${fx.home}/.netrc'`,
        `cat '${fx.workspace}${up}${fx.home}/.npmrc'`,
        `cat '${fx.home}/./.ssh/../.ssh/id_rsa'`,
        `cat '/proc/1/root${fx.home}/private/notes.txt'`,
      ].join('; '),
    );
    const evidence = fx.evidence(result, since);
    for (const secret of FILE_SECRETS) expect(evidence).not.toContain(secret);
  });

  it('[F3 secrets] cannot plant a file into a hidden folder for the host to pick up', async () => {
    await fx.bash('echo planted > ~/.ssh/authorized_keys; mkdir -p ~/.aws && echo planted > ~/.aws/config');
    expect(fs.existsSync(path.join(fx.home, '.ssh', 'authorized_keys'))).toBe(false);
    expect(fs.readdirSync(path.join(fx.home, '.aws'))).toEqual(['credentials']);
  });

  it('[F3 secrets] control: ordinary files in the home directory stay readable, and the workspace writable', async () => {
    const result = await fx.bash(`cat ~/public.txt && echo written > '${fx.workspace}/w.txt' && cat w.txt`);
    expect(textOf(result)).toBe('public-content\nwritten');
    expect(fs.readFileSync(path.join(fx.workspace, 'w.txt'), 'utf8')).toBe('written\n');
  });
});
