import { chmodSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copilotLoginPath } from '../../src/config/copilot-login.js';
import { readCopilotLogin } from '../../src/config/read-copilot-login.js';
import { writePrivateFile } from '../../src/config/write-private-file.js';

describe('the stored Copilot login', () => {
  let dir: string;
  let file: string;
  const login = { githubToken: 'ghu_abc', githubUrl: 'https://github.com', savedAt: '2026-11-27T02:00:00.000Z' };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentd-login-'));
    file = copilotLoginPath({ stateDir: join(dir, 'state') });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is written as <stateDir>/copilot.json, mode 0600 in a 0700 directory, and read back', async () => {
    const oldMask = process.umask(0o022);
    try {
      await writePrivateFile(file, JSON.stringify(login));
    } finally {
      process.umask(oldMask);
    }
    expect(file).toBe(join(dir, 'state', 'copilot.json'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'state')).mode & 0o777).toBe(0o700);
    expect(readCopilotLogin(file)).toEqual(login);
  });

  it('a new login replaces the old one whole, still 0600', async () => {
    await writePrivateFile(file, JSON.stringify(login));
    await writePrivateFile(file, JSON.stringify({ ...login, githubToken: 'ghu_new' }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readCopilotLogin(file).githubToken).toBe('ghu_new');
  });

  it('is refused, in one line naming the fix, when group or others may read it', async () => {
    await writePrivateFile(file, JSON.stringify(login));
    for (const mode of [0o640, 0o604]) {
      chmodSync(file, mode);
      expect(() => readCopilotLogin(file)).toThrow(`copilot: ${file} is readable by others (mode ${mode.toString(8)}); run \`chmod 600 ${file}\` or \`agentd login copilot\` again`);
    }
  });

  it('is refused when another user owns it', async () => {
    await writePrivateFile(file, JSON.stringify(login));
    const mine = statSync(file).uid;
    expect(() => readCopilotLogin(file, mine + 1)).toThrow(`copilot: ${file} belongs to another user (uid ${mine}); remove it and run \`agentd login copilot\``);
    expect(readCopilotLogin(file, mine)).toEqual(login);
  });

  it('is refused when it is a symbolic link', async () => {
    const real = join(dir, 'elsewhere.json');
    await writePrivateFile(real, JSON.stringify(login));
    await writePrivateFile(join(dir, 'state', 'placeholder'), '');
    symlinkSync(real, file);
    expect(() => readCopilotLogin(file)).toThrow(`copilot: ${file} is a symbolic link; remove it and run \`agentd login copilot\``);
  });

  it('says not logged in when absent, and what to do when it is not what agentd wrote', async () => {
    expect(() => readCopilotLogin(file)).toThrow(/^copilot: not logged in; run `agentd login copilot`$/);
    await writePrivateFile(file, '{"token":');
    expect(() => readCopilotLogin(file)).toThrow(`copilot: ${file} is not a login agentd wrote; run \`agentd login copilot\` again`);
    writeFileSync(file, JSON.stringify({ githubToken: 'x' }), { mode: 0o600 });
    expect(() => readCopilotLogin(file)).toThrow('is not a login agentd wrote');
  });
});
