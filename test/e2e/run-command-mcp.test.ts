import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';

const CRASHY = fileURLToPath(new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url));
const SLOW = fileURLToPath(new URL('../fixtures/mcp/slow-to-start.mjs', import.meta.url));

/** Servers start in the background; the run's one prompt waits for those still starting, and says so. */
describe('agentd run with MCP servers', () => {
  let replay: ReplayServer;
  let workspace: string;
  let home: ReturnType<typeof makeHome>;

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('offers a config server\'s tools in its only model request, and is not held up for good by a server that fails', async () => {
    home = makeHome({
      model: 'local/tiny',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      mcpServers: {
        crashy: { command: process.execPath, args: [CRASHY] },
        // Still starting when the prompt arrives, however fast the run gets there.
        slow: { command: process.execPath, args: [SLOW], env: { MCP_START_DELAY_MS: '4000' } },
        missing: { command: join(workspace, 'no-such-server') },
      },
    });
    replay.enqueue({ body: chatCompletionSse(['ok']) });
    const result = await runCli(['run', '--cwd', workspace, 'hi'], daemonEnv(home.home));
    expect(result.stdout).toBe('ok\n');
    expect(result.code).toBe(0);
    const offered = (replay.requests[0]!.body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name);
    expect(offered).toContain('crashy__echo');
    expect(offered).toContain('slow__lookup');
    // The wait is on the status lines.
    expect(result.stderr).toContain('agentd: → Start MCP server slow\n');
    expect(result.stderr).toContain('agentd: ✓ Start MCP server slow\n');
  });
});
