import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRipgrep } from '../../../src/tools/search/run-ripgrep.js';

/**
 * F3: grep and glob run rg outside the sandbox, so rg must not get the daemon's keys. A
 * stand-in `rg` first on PATH records the environment it was started with.
 */
describe('escape: ripgrep environment', () => {
  let dir: string;
  let savedPath: string | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-rg-env-'));
    fs.writeFileSync(path.join(dir, 'rg'), `#!/bin/sh\nenv > "${path.join(dir, 'env.txt')}"\n`, { mode: 0o755 });
    savedPath = process.env.PATH;
    process.env.PATH = `${dir}${path.delimiter}${savedPath ?? ''}`;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('[F3 secrets] rg started for grep or glob sees no provider key, token or credential URL', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      LANG: 'C.UTF-8',
      WORK_KEY: 'sk-work-key-0000',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-0000',
      DATABASE_URL: 'postgres://u:pw-0000@db/x',
      OPENAI_API_KEY: 'sk-openai-0000',
    };
    await runRipgrep(['--files'], { cwd: dir, signal: new AbortController().signal, env }, () => undefined);
    const seen = fs.readFileSync(path.join(dir, 'env.txt'), 'utf8');
    expect(seen).toContain(`HOME=${dir}`);
    expect(seen).toContain('LANG=C.UTF-8');
    for (const secret of ['sk-work-key-0000', 'aws-secret-0000', 'pw-0000', 'sk-openai-0000']) expect(seen).not.toContain(secret);
  });
});
