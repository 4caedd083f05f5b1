import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/tools/builtin/bash.js';
import { makeContext, textOf } from '../tool-test-context.js';
import { makeSandboxFixture, SECRETS, type SandboxFixture } from './sandbox-fixture.js';
import { BUBBLEWRAP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

const nodeConnect = (socket: string): string =>
  `node -e 'const s = require("net").connect(process.argv[1].replace(/^@/, "\\0")); s.on("connect", () => { console.log("connected"); s.end(); }); s.on("error", (e) => console.log("refused " + e.code))' '${socket}'`;
const pythonConnect = (socket: string): string =>
  `python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1].replace("@", "\\0", 1)); print("connected")' '${socket}'`;

/** F1: nothing inside the sandbox reaches the daemon, its files or the host's sockets. */
describe.skipIf(!hasBubblewrap)('escape: daemon reach', () => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await makeSandboxFixture();
  });
  afterAll(async () => {
    await fx.cleanup();
  });

  const cannotConnect = async (socket: { path: string; connections(): number }, command: string): Promise<void> => {
    const before = socket.connections();
    const result = await fx.bash(command);
    expect(textOf(result)).not.toContain('connected\n');
    expect(textOf(result)).not.toMatch(/^connected$/m);
    expect(socket.connections()).toBe(before);
  };

  it('[F1 daemon-reach] control: the same commands do connect outside the sandbox, so the tests can fail', async () => {
    const before = fx.daemonSocket.connections();
    const result = await createBashTool({ policy: fx.policy }).execute({ command: nodeConnect(fx.daemonSocket.path) }, makeContext(fx.workspace, { env: fx.env }));
    expect(textOf(result)).toContain('connected');
    expect(fx.daemonSocket.connections()).toBe(before + 1);
  });

  it("[F1 daemon-reach] cannot connect to the daemon's Unix socket with node", async () => {
    await cannotConnect(fx.daemonSocket, nodeConnect(fx.daemonSocket.path));
  });

  it("[F1 daemon-reach] cannot connect to the daemon's Unix socket with python3", async () => {
    await cannotConnect(fx.daemonSocket, pythonConnect(fx.daemonSocket.path));
  });

  it('[F1 daemon-reach] cannot list the runtime dir or $XDG_RUNTIME_DIR', async () => {
    const result = await fx.bash(`ls -A '${fx.paths.runtimeDir}' '${fx.env.XDG_RUNTIME_DIR}'; echo "[$XDG_RUNTIME_DIR]"`);
    expect(textOf(result)).not.toContain('agentd.sock');
    expect(textOf(result)).toContain('[]');
  });

  it('[F1 daemon-reach] cannot read the TCP token file, directly, via /proc/self/root, via .. or via a symlink in the workspace', async () => {
    const since = Date.now();
    const token = fx.paths.tokenFile;
    const dots = `${fx.workspace}${'/..'.repeat(fx.workspace.split('/').length - 1)}${token}`;
    fs.symlinkSync(token, path.join(fx.workspace, 'token-link'));
    const result = await fx.bash(`cat '${token}'; cat '/proc/self/root${token}'; cat '${dots}'; cat token-link; cp token-link copy.txt; cat '${path.dirname(token)}/./token'`);
    expect(dots).toContain('..');
    expect(fx.evidence(result, since)).not.toContain(SECRETS.token);
  });

  it('[F1 daemon-reach] cannot read config.json with its apiKey, nor find it by listing the config dir', async () => {
    const since = Date.now();
    const result = await fx.bash(`cat '${fx.paths.configFile}'; echo "[$(ls -A '${fx.paths.configDir}')]"; grep -r apiKey ~/.config > found.txt`);
    expect(fx.evidence(result, since)).not.toContain(SECRETS.configApiKey);
    expect(textOf(result)).toContain('[]');
  });

  it('[F1 daemon-reach] cannot open the session database', async () => {
    const since = Date.now();
    const result = await fx.bash(
      `head -c 16 '${fx.paths.databaseFile}'; node -e 'try { console.log(require("fs").readFileSync(process.argv[1], "latin1")) } catch (e) { console.log(e.code) }' '${fx.paths.databaseFile}'`,
    );
    expect(fx.evidence(result, since)).not.toContain('SQLite format 3');
    expect(fx.evidence(result, since)).not.toContain(SECRETS.database);
  });

  it('[F1 daemon-reach] cannot reach the ssh-agent socket named by SSH_AUTH_SOCK', async () => {
    await cannotConnect(fx.agentSocket, nodeConnect(fx.agentSocket.path));
  });

  it('[F1 daemon-reach] cannot reach a host socket under /run (docker.sock, dbus), nor via /var/run', async () => {
    await cannotConnect(fx.runSocket, `${pythonConnect(fx.runSocket.path)}; ${pythonConnect(fx.runSocket.path.replace(/^\/run/, '/var/run'))}`);
  });

  it('[F1 daemon-reach] cannot reach an abstract Unix socket without network; sandbox.network opens them (documented)', async () => {
    const name = `@${fx.abstractSocket.path.slice(1)}`;
    await cannotConnect(fx.abstractSocket, nodeConnect(name));
    const before = fx.abstractSocket.connections();
    const open = await fx.bash(nodeConnect(name), { allowNetwork: true });
    expect(textOf(open)).toMatch(/^connected$/m);
    expect(fx.abstractSocket.connections()).toBe(before + 1);
  });

  it('[F1 daemon-reach] cannot see other sessions\' tool output, only its own session\'s folder', async () => {
    const other = path.join(fx.paths.dataDir, 'tool-output', 'other-session');
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(path.join(other, 'bash-x.log'), 'other-session-output\n');
    const long = await fx.bash('seq 1 30000');
    const own = long.details?.fullOutputPath ?? '';
    expect(own.startsWith(path.join(fx.paths.dataDir, 'tool-output', 'session-test'))).toBe(true);
    const result = await fx.bash(`tail -n 1 '${own}'; cat '${other}/bash-x.log'; echo "[$(ls '${path.dirname(other)}')]"`);
    expect(textOf(result)).toContain('30000');
    expect(textOf(result)).not.toContain('other-session-output');
    expect(textOf(result)).toContain('[session-test]');
  });

  it("[F1 daemon-reach] refuses to run in a workspace inside agentd's own directories, saying why", async () => {
    const inside = path.join(fx.paths.dataDir, 'project');
    fs.mkdirSync(inside, { recursive: true });
    const result = await fx.bash('echo ran > ran.txt', { cwd: inside });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`The sandbox refuses to run here: ${inside} lies inside ${fx.paths.dataDir}`);
    expect(textOf(result)).toContain('Open the session in a project directory outside');
    expect(fs.existsSync(path.join(inside, 'ran.txt'))).toBe(false);
  });
});
