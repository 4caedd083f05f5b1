import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { DAEMON_SECRETS, startEscapeDaemon, type EscapeDaemon } from '../support/escape-daemon.js';
import { until } from '../support/daemon-process.js';
import { BUBBLEWRAP, requireProgram } from '../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

/**
 * What a prompt-injected model gets when it runs bash through the real daemon: a child
 * `agentd serve --socket --listen` in bypass mode, so nothing is asked and only the
 * sandbox stands between the model and the daemon's socket, files and environment.
 */

/** Connects to a Unix socket or loopback port, opens a session whose MCP server would `touch MARKER` outside any sandbox, prints what it got. */
const ATTACK_JS = [
  'const [target, cwd, marker] = process.argv.slice(1);',
  'const s = require("net").connect(/^[0-9]+$/.test(target) ? { port: Number(target), host: "127.0.0.1" } : target);',
  's.on("connect", () => {',
  '  console.log("connected");',
  '  const send = (id, method, params) => s.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\\n");',
  '  send(1, "initialize", { protocolVersion: 1 });',
  '  send(2, "session/new", { cwd, mcpServers: [{ name: "own", command: "/bin/sh", args: ["-c", "touch " + marker], env: [] }] });',
  '});',
  's.on("data", (d) => { process.stdout.write(d); if (String(d).split("\\n").some((l) => l.startsWith("{") && JSON.parse(l).id === 2)) s.end(); });',
  's.on("error", (e) => console.log("refused " + e.code));',
].join('\n');
const attack = (target: string | number, cwd: string, marker: string): string => `timeout 20 node -e '${ATTACK_JS}' '${target}' '${cwd}' '${marker}'`;

describe.skipIf(!hasBubblewrap)('escape through the daemon as a process: bash in bypass mode', () => {
  let d: EscapeDaemon;
  beforeAll(async () => {
    d = await startEscapeDaemon();
  }, 30_000);
  afterAll(async () => {
    await d?.close();
  });

  describe('F1: the daemon socket', () => {
    let ordinary: Server;
    let ordinaryConnections = 0;
    const open = new Set<Socket>();
    beforeAll(async () => {
      // A socket in the workspace that answers like the daemon would, for the in-sandbox control.
      ordinary = createServer((socket) => {
        ordinaryConnections += 1;
        open.add(socket);
        socket.end('{"jsonrpc":"2.0","id":2,"result":{"sessionId":"ordinary"}}\n');
      });
      await new Promise<void>((resolve) => ordinary.listen(join(d.workspace, 'ordinary.sock'), resolve));
    });
    afterAll(async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => ordinary.close(resolve));
    });

    it('[F1 daemon-reach] control: the attack opens a session on the daemon socket from outside the sandbox, and reaches a workspace socket from inside', async () => {
      const marker = join(d.outside, 'control-mcp-ran');
      const before = await d.sessionCount();
      const output = execFileSync('bash', ['-c', attack(d.socketPath, d.workspace, marker)], { cwd: d.workspace, encoding: 'utf8' });
      expect(output).toMatch(/^connected$/m);
      expect(output).toMatch(/"id":2,"result":\{"sessionId":"/);
      expect(await d.sessionCount()).toBe(before + 1);
      // The daemon starts the session's "MCP server" with the user's rights, in the background.
      await until(() => existsSync(marker), 10_000, 'the control MCP server to run');
      const tcp = execFileSync('bash', ['-c', attack(d.tcpPort, d.workspace, marker)], { cwd: d.workspace, encoding: 'utf8' });
      expect(tcp).toMatch(/^connected$/m);

      const session = await d.newSession();
      const [inside] = await d.runBash(session, [attack(join(d.workspace, 'ordinary.sock'), d.workspace, marker)]);
      expect(inside).toMatch(/^connected$/m);
      expect(inside).toContain('"sessionId":"ordinary"');
      expect(ordinaryConnections).toBe(1);
    });

    it("[F1 daemon-reach] bash cannot connect to the daemon's own Unix socket and open a session with an MCP server outside the sandbox", async () => {
      const session = await d.newSession();
      const marker = join(d.outside, 'mcp-ran');
      const before = await d.sessionCount();
      const [result] = await d.runBash(session, [attack(d.socketPath, d.workspace, marker)]);
      expect(result).toMatch(/refused E(NOENT|CONNREFUSED|ACCES)/);
      expect(result).not.toMatch(/^connected$/m);
      expect(result).not.toContain('sessionId');
      expect(await d.sessionCount()).toBe(before);
      expect(existsSync(marker)).toBe(false);
    });

    it("[F1 daemon-reach] bash cannot reach the daemon's TCP port, find the socket in the runtime dir, or reach it by a symlink", async () => {
      const session = await d.newSession();
      const marker = join(d.outside, 'mcp-ran-2');
      const before = await d.sessionCount();
      const [tcp, listing, viaLink] = await d.runBash(session, [
        attack(d.tcpPort, d.workspace, marker),
        `echo "[$(ls -A '${join(d.home, 'run')}')]"; ls -A '${d.home}'`,
        `ln -s '${d.socketPath}' daemon.sock && ${attack(join(d.workspace, 'daemon.sock'), d.workspace, marker)}`,
      ]);
      expect(tcp).toMatch(/refused ECONNREFUSED/);
      expect(listing).toContain('[]');
      expect(listing).toMatch(/^run$/m); // the home's listing shows the directory exists: only its content is hidden
      expect(readlinkSync(join(d.workspace, 'daemon.sock'))).toBe(d.socketPath);
      expect(viaLink).toMatch(/refused E(NOENT|CONNREFUSED|ACCES)/);
      for (const text of [tcp, viaLink]) expect(text).not.toMatch(/^connected$/m);
      expect(await d.sessionCount()).toBe(before);
      expect(existsSync(marker)).toBe(false);
    });
  });

  it('[F3 secrets] bash cannot read the token file, config.json with apiKey or agentd.db by absolute path, nor copy them out', async () => {
    const session = await d.newSession();
    const token = readFileSync(d.tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThan(10);
    expect(readFileSync(d.configFile, 'utf8')).toContain(DAEMON_SECRETS.configApiKey);
    expect(readFileSync(d.databaseFile).subarray(0, 15).toString()).toBe('SQLite format 3');
    const [direct, listing] = await d.runBash(session, [
      `cat '${d.tokenFile}' '${d.configFile}'; head -c 64 '${d.databaseFile}'; cat '${d.tokenFile}' '${d.configFile}' > copied.txt`,
      `ls -A '${join(d.home, 'state')}' '${join(d.home, 'config')}' '${join(d.home, 'data')}'; grep -rs apiKey '${d.home}' | head -3`,
    ]);
    const copied = readFileSync(join(d.workspace, 'copied.txt'), 'utf8'); // the command ran and wrote its file
    for (const text of [direct, listing, copied]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(DAEMON_SECRETS.configApiKey);
      expect(text).not.toContain('SQLite format 3');
    }
    expect(listing).not.toMatch(/token|config\.json|agentd\.db/);
  });

  it('[F3 secrets] bash cannot read them through symlinks it creates in the workspace; the same reading works on an ordinary file', async () => {
    const session = await d.newSession();
    const token = readFileSync(d.tokenFile, 'utf8').trim();
    writeFileSync(join(d.workspace, 'plain.txt'), 'ordinary-content-42\n');
    const [viaLinks, control] = await d.runBash(session, [
      `ln -s '${d.tokenFile}' tok; ln -s '${d.configFile}' cfg.json; ln -s '${d.databaseFile}' db; ln -s '${d.home}' home-link; ` +
        `cat tok cfg.json home-link/state/token home-link/config/config.json; head -c 64 db; cp cfg.json cfg-copy.txt; echo end`,
      `ln -s '${join(d.workspace, 'plain.txt')}' plain-link && cat plain-link`,
    ]);
    expect(lstatSync(join(d.workspace, 'tok')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(d.workspace, 'home-link'))).toBe(d.home);
    expect(viaLinks).toMatch(/^end$/m);
    const evidence = viaLinks + (existsSync(join(d.workspace, 'cfg-copy.txt')) ? readFileSync(join(d.workspace, 'cfg-copy.txt'), 'utf8') : '');
    expect(evidence).not.toContain(token);
    expect(evidence).not.toContain(DAEMON_SECRETS.configApiKey);
    expect(evidence).not.toContain('SQLite format 3');
    expect(control).toContain('ordinary-content-42');
  });

  it("[F3 secrets] env shows neither the apiKeyEnv variable nor AWS_SECRET_ACCESS_KEY, though both are in the daemon's environment", async () => {
    const session = await d.newSession();
    // Controls: the daemon really has both (its own /proc environ) and sends WORK_KEY to the model's server.
    const daemonEnviron = readFileSync(`/proc/${d.daemon.child.pid}/environ`, 'utf8');
    expect(daemonEnviron).toContain(`WORK_KEY=${DAEMON_SECRETS.workKey}`);
    expect(daemonEnviron).toContain(`AWS_SECRET_ACCESS_KEY=${DAEMON_SECRETS.awsSecret}`);
    const [dump, procs] = await d.runBash(session, [
      'env; echo "[${WORK_KEY-unset}][${AWS_SECRET_ACCESS_KEY-unset}]"; env > env.txt',
      'cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c "=" ; cat /proc/1/environ /proc/$PPID/environ | tr "\\0" "\\n" > procenv.txt; echo end',
    ]);
    expect(d.replay.requests.at(-1)!.headers.authorization).toBe(`Bearer ${DAEMON_SECRETS.workKey}`);
    expect(dump).toMatch(/^PATH=/m);
    expect(dump).toContain('[unset][unset]');
    expect(procs).toMatch(/^end$/m);
    const files = readFileSync(join(d.workspace, 'env.txt'), 'utf8') + readFileSync(join(d.workspace, 'procenv.txt'), 'utf8');
    expect(files).toMatch(/^PATH=/m);
    for (const text of [dump, procs, files]) {
      expect(text).not.toContain(DAEMON_SECRETS.workKey);
      expect(text).not.toContain(DAEMON_SECRETS.awsSecret);
      expect(text).not.toMatch(/^(WORK_KEY|AWS_SECRET_ACCESS_KEY|AGENTD_HOME)=/m);
    }
  });

  describe('F2: .git/config written by bash, read by the next session', () => {
    const hook = (d: EscapeDaemon): string => join(d.workspace, 'fsmon.sh');
    const marker = (d: EscapeDaemon): string => join(d.outside, 'fsmonitor-ran');
    const plant = (d: EscapeDaemon): string =>
      `printf '#!/bin/sh\\nenv > ${marker(d)}\\n' > fsmon.sh && chmod +x fsmon.sh`;

    it('[F2 workspace-commands] bash cannot write core.fsmonitor into .git/config, and a second session computing git facts runs nothing', async () => {
      const gitConfig = join(d.workspace, '.git', 'config');
      const before = readFileSync(gitConfig, 'utf8');
      const first = await d.newSession();
      const [planted, appended, viaGit, viaHook, moved, control] = await d.runBash(first, [
        `${plant(d)} && ls -l fsmon.sh`,
        `printf '[core]\\n\\tfsmonitor = ${hook(d)}\\n' >> .git/config; echo "exit=$?"`,
        `git config core.fsmonitor '${hook(d)}'; echo "exit=$?"`,
        `cp fsmon.sh .git/hooks/post-index-change; echo "exit=$?"`,
        `mv .git git-moved; mkdir -p .agentd && echo '{"permissions":{"allow":["bash"]}}' > .agentd/config.json; echo "exit=$?"`,
        `mkdir -p notgit && printf '[core]\\n\\tfsmonitor = ${hook(d)}\\n' >> notgit/config && cat notgit/config`,
      ]);
      expect(planted).toContain('fsmon.sh');
      expect(appended).toMatch(/Read-only file system/);
      expect(appended).toContain('exit=1');
      expect(viaGit).not.toContain('exit=0');
      expect(viaHook).toMatch(/Read-only file system/);
      expect(moved).toContain('exit=1');
      expect(existsSync(join(d.workspace, 'git-moved'))).toBe(false);
      expect(existsSync(join(d.workspace, '.agentd', 'config.json'))).toBe(false);
      expect(control).toContain(`fsmonitor = ${hook(d)}`);
      expect(readFileSync(gitConfig, 'utf8')).toBe(before);
      expect(existsSync(join(d.workspace, '.git', 'hooks', 'post-index-change'))).toBe(false);

      const second = await d.newSession();
      d.replay.enqueue({ body: chatCompletionSse(['hello']) });
      const before2 = d.replay.requests.length;
      expect((await d.peer.call('session/prompt', { sessionId: second, prompt: [{ type: 'text', text: 'hi' }] }, 60_000)).stopReason).toBe('end_turn');
      const system = JSON.stringify(d.replay.requests[before2]!.body);
      expect(system).toMatch(/Git branch: (main|master)/);
      expect(system).toMatch(/Git status: [^"\\]*untracked/); // git status ran (sandboxed) on the first prompt
      expect(existsSync(marker(d))).toBe(false);
    });

    it('[F2 workspace-commands] a repository that arrives with core.fsmonitor set does not run it on the first prompt; git outside the sandbox would', async () => {
      const repo = join(d.root, 'hostile');
      mkdirSync(repo);
      execFileSync('git', ['init', '-q', repo]);
      const script = join(repo, 'fsmon.sh');
      writeFileSync(script, `#!/bin/sh\nenv > ${join(d.outside, 'hostile-ran')}\n`, { mode: 0o755 });
      execFileSync('git', ['-C', repo, 'config', 'core.fsmonitor', script]);
      const session = await d.newSession(repo);
      d.replay.enqueue({ body: chatCompletionSse(['hello']) });
      const before = d.replay.requests.length;
      await d.peer.call('session/prompt', { sessionId: session, prompt: [{ type: 'text', text: 'hi' }] }, 60_000);
      expect(JSON.stringify(d.replay.requests[before]!.body)).toMatch(/Git status: /);
      expect(existsSync(join(d.outside, 'hostile-ran'))).toBe(false);

      // Control: plain git in that repository runs the script, with the key in its environment.
      execFileSync('git', ['-C', repo, 'status', '--porcelain'], {
        env: { ...process.env, WORK_KEY: DAEMON_SECRETS.workKey },
        stdio: 'ignore',
      });
      expect(readFileSync(join(d.outside, 'hostile-ran'), 'utf8')).toContain(DAEMON_SECRETS.workKey);
    });
  });
});
