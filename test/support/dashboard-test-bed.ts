import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonEnv, makeHome } from './daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from './in-process-daemon.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

export const INDEX_HTML = '<!doctype html><title>agentd</title><script type="module" src="/assets/app.js"></script>\n';
export const APP_JS = 'console.log("the page");\n';
export const SECRET = 'the contents of a file outside the web root';

/**
 * An in-process daemon whose dashboard serves a small web root of its own (index.html,
 * assets/app.js, a symbolic link leading out, a secret file beside the root), with a clock
 * the test moves and the model on the loopback replay server.
 */
export interface DashboardTestBed {
  daemon: InProcessDaemon;
  replay: ReplayServer;
  webRoot: string;
  workspace: string;
  /** Moves the clock tokens and sessions expire by. */
  advance(ms: number): void;
  /** A fresh login address through `dashboard/login` on the in-memory client. */
  loginUrl(): Promise<string>;
  close(): Promise<void>;
}

export async function startDashboardTestBed(config: Record<string, unknown> = {}, options: { built?: boolean } = {}): Promise<DashboardTestBed> {
  const replay = await startReplayServer();
  const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } }, ...config });
  const top = mkdtempSync(join(tmpdir(), 'agentd-web-'));
  const webRoot = join(top, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(top, 'secret.txt'), SECRET);
  if (options.built !== false) {
    writeFileSync(join(webRoot, 'index.html'), INDEX_HTML);
    writeFileSync(join(webRoot, 'assets', 'app.js'), APP_JS);
    symlinkSync(join(top, 'secret.txt'), join(webRoot, 'assets', 'link.txt'));
  }
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  let now = Date.now();
  const daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd(), { shell: { webRoot, now: () => now } });
  await daemon.peer.call('initialize', { protocolVersion: 1 });
  return {
    daemon,
    replay,
    webRoot,
    workspace,
    advance: (ms) => void (now += ms),
    loginUrl: async () => (await daemon.peer.call('dashboard/login', {})).url,
    async close() {
      await daemon.close();
      await replay.close();
      home.cleanup();
      rmSync(top, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
