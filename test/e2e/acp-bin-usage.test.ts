import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

// The bin takes `agentd acp` straight to the bridge, past the CLI's argument table:
// these check it still speaks as the rest of the CLI does.
describe('`agentd acp` through the bin, on its own short path', () => {
  let home: ReturnType<typeof makeHome>;
  beforeEach(() => {
    home = makeHome();
  });
  afterEach(() => home.cleanup());

  it('answers a mistyped option as a usage error naming it, exit 2, as every command does', async () => {
    const result = await runCli(['acp', '--bogus'], daemonEnv(home.home));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("agentd acp: unknown option '--bogus'. Run 'agentd acp --help' for its options.\n");
    expect(result.stdout).toBe('');
  });

  it('shows its help for --help and -h, starting no daemon', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await runCli(['acp', flag], daemonEnv(home.home));
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: agentd acp \[--socket PATH\] \[--config FILE\]\n/);
    }
    const status = await runCli(['status'], daemonEnv(home.home));
    expect(status.stdout + status.stderr).toMatch(/^agentd is not running/);
  });

  it('prints a failure once, prefixed with the program, exit 1: a daemon it started that stopped at a bad config, and why', async () => {
    const missing = join(home.home, 'missing.json');
    const result = await runCli(['acp', '--config', missing], daemonEnv(home.home));
    expect(result.code).toBe(1);
    const log = join(home.home, 'state', 'logs', 'daemon.log');
    expect(result.stderr).toBe(
      `agentd: the daemon exited with code 78 before serving ${join(home.home, 'run', 'agentd.sock')}: ${missing}: config file not found; check the --config path; see ${log}\n`,
    );
    expect(readFileSync(log, 'utf8')).toContain('missing.json');
  });
});
