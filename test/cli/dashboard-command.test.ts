import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { logIn, rawGet } from '../support/dashboard-client.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { freePort } from '../support/free-port.js';
import { runCli } from '../support/run-cli.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `agentd dashboard` against the built CLI: it starts the shared daemon on demand, as `agentd acp` does. */
describe('agentd dashboard', () => {
  let home: ReturnType<typeof makeHome>;
  afterEach(async () => {
    try {
      const { pid } = JSON.parse(readFileSync(join(home.home, 'data', 'agentd.owner.json'), 'utf8')) as { pid: number };
      process.kill(pid, 'SIGTERM');
      await until(() => !isAlive(pid), 10_000, 'the daemon to stop');
    } catch {
      // No daemon was left running.
    }
    home.cleanup();
  });

  it('starts the daemon, prints one login line, and the address works once', async () => {
    home = makeHome({});
    const env = daemonEnv(home.home);
    const result = await runCli(['dashboard', '--no-open'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^dashboard: http:\/\/127\.0\.0\.1:\d+\/login\?token=[A-Za-z0-9_-]{43}\n$/);
    const url = result.stdout.slice('dashboard: '.length).trim();
    const { cookie, answer } = await logIn(url);
    expect(answer.status).toBe(303);
    // The daemon serves the package's dist/web: the page when `npm run build` made it, else how to make it.
    const built = existsSync(fileURLToPath(new URL('../../dist/web/index.html', import.meta.url)));
    expect((await rawGet(new URL(url).origin, '/', { Cookie: cookie })).status).toBe(built ? 200 : 503);
    expect((await logIn(url)).answer.status).toBe(401);

    // A second run finds the same daemon and its HTTP server: same origin, a new token.
    const second = await runCli(['dashboard', '--no-open'], env);
    const again = second.stdout.slice('dashboard: '.length).trim();
    expect(new URL(again).origin).toBe(new URL(url).origin);
    expect(again).not.toBe(url);
    const status = await runCli(['status'], env);
    expect(status.stdout).toContain(`web:      ${new URL(url).origin}`);
    const log = readFileSync(join(home.home, 'state', 'logs', 'daemon.log'), 'utf8');
    expect(log).toContain('serving the dashboard on');
    expect(log).not.toContain(new URL(url).searchParams.get('token')!);
    expect(log).not.toContain(new URL(again).searchParams.get('token')!);
    expect(log).not.toContain(cookie.split('=')[1]!);
  });

  it('serves on server.http when the config sets it', async () => {
    const port = await freePort();
    home = makeHome({ server: { http: `127.0.0.1:${port}` } });
    const result = await runCli(['dashboard', '--no-open'], daemonEnv(home.home));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^dashboard: http://127\\.0\\.0\\.1:${port}/login\\?token=`));
  });

  it('refuses a server.http that is not loopback, naming the flag that allows it', async () => {
    home = makeHome({ server: { http: '192.0.2.1:7780' } });
    const result = await runCli(['dashboard', '--no-open'], daemonEnv(home.home));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/192\.0\.2\.1 is not a loopback address.*--http-any-host/);
  });
});
