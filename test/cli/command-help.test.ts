import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP, renderCommandHelp } from '../../src/cli/command-help.js';
import { shellCompletion } from '../../src/cli/shell-completion.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

describe('help on every command', () => {
  it.each(Object.keys(COMMAND_HELP))('agentd %s --help, and help with its name, print its usage and options and exit 0', async (name) => {
    const home = makeHome();
    try {
      const env = daemonEnv(home.home);
      const viaFlag = await runCli([name, '--help'], env);
      const viaHelp = await runCli(['help', name], env);
      expect(viaFlag).toEqual({ code: 0, stdout: renderCommandHelp(name) + '\n', stderr: '' });
      expect(viaHelp).toEqual(viaFlag);
      expect(viaFlag.stdout).toContain(`Usage: agentd ${name}`);
      for (const option of COMMAND_HELP[name]!.options) expect(viaFlag.stdout).toContain(option.flag);
    } finally {
      home.cleanup();
    }
  });

  it('a prompt that is literally --help, after --, is a prompt and not a request for help', async () => {
    const home = makeHome();
    try {
      const result = await runCli(['run', '--', '--help'], daemonEnv(home.home));
      expect(result.stdout).not.toContain('Usage:');
      // It went on to run the prompt, which needs a provider.
      expect(result.code).toBe(3);
    } finally {
      home.cleanup();
    }
  });

  it('names the commands when asked about one that does not exist', async () => {
    const home = makeHome();
    try {
      const result = await runCli(['help', 'frobnicate'], daemonEnv(home.home));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('unknown command "frobnicate"; the commands are serve, acp, run, sessions');
    } finally {
      home.cleanup();
    }
  });
});

describe('shell completion', () => {
  it('bash: a valid script that completes commands, then a command\'s flags', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentd-completion-'));
    try {
      const script = join(dir, 'agentd.bash');
      writeFileSync(script, shellCompletion('bash'));
      const complete = (words: string[]): string[] => {
        const line = `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _agentd; printf '%s\\n' "\${COMPREPLY[@]}"`;
        const result = spawnSync('bash', ['-c', line], { encoding: 'utf8' });
        expect(result.stderr).toBe('');
        return result.stdout.trim().split('\n');
      };
      expect(complete(['agentd', 'se'])).toEqual(['serve', 'sessions']);
      expect(complete(['agentd', 'run', '--perm'])).toEqual(['--permission-mode']);
      expect(complete(['agentd', 'permissions', 'r'])).toEqual(['revoke']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('zsh and fish scripts name every command and flag; an unknown shell is an error naming the ones there are', () => {
    for (const shell of ['zsh', 'fish']) {
      const script = shellCompletion(shell);
      for (const [name, help] of Object.entries(COMMAND_HELP)) {
        expect(script).toContain(name);
        for (const option of help.options) expect(script).toContain(shell === 'fish' ? `-l ${option.flag.slice(2)}` : option.flag);
      }
    }
    expect(() => shellCompletion('tcsh')).toThrow('unknown shell "tcsh"; use bash, zsh or fish');
  });
});
