import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionAnswer } from '../../../src/project/permission-asker.js';
import { globTool } from '../../../src/tools/builtin/glob.js';
import { grepTool } from '../../../src/tools/builtin/grep.js';
import { lsTool } from '../../../src/tools/builtin/ls.js';
import { readTool } from '../../../src/tools/builtin/read.js';
import { buildSandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import type { PermissionRuleSet } from '../../../src/tools/permissions/match-permission-rules.js';
import type { PermissionMode } from '../../../src/tools/permissions/permission-modes.js';
import { toolOutputDir } from '../../../src/tools/shell/tool-output-dir.js';
import type { Tool } from '../../../src/tools/tool.js';
import { makeContext, makeTempDir, recordingGate, textOf, type TempDir } from '../tool-test-context.js';
import { leaksSecret, PUBLIC_TEXT, type HomeWorkspace, useHomeWorkspace } from './home-workspace-fixture.js';
import { sessionPermissionHarness } from './session-permission-harness.js';
import { requireProgram, RIPGREP } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

/**
 * F12: one access policy for every daemon-side file access. With the home folder as the
 * workspace, read, ls, grep and glob see nothing of what the sandbox hides from bash
 * (credentials, agentd's own files, sandbox.denyRead) unless the user says yes to that
 * one call, in every mode, bypass included.
 */
describe('[F12 access-policy] reads and searches in a home workspace', () => {
  let w: HomeWorkspace;
  useHomeWorkspace((made) => (w = made));

  const everything: PermissionRuleSet[] = [{ allow: ['read', 'read(**)', 'ls', 'grep', 'glob'] }];
  const harness = (mode: PermissionMode, answer: PermissionAnswer = 'reject_once', rules = everything) =>
    sessionPermissionHarness({ cwd: w.home, dataDir: w.paths.dataDir, mode, rules, answer: () => answer, sandboxPolicy: w.policy });

  const attempt = async (tool: Tool<never>, args: Record<string, unknown>, mode: PermissionMode) => {
    const h = harness(mode);
    const { permit, result } = await h.run(tool, args);
    return { questions: h.questions, permit, text: result ? textOf(result) : '' };
  };

  it.each([
    ['.ssh/id_rsa', /credential path \(~\/\.ssh\)/],
    ['~/.ssh/id_rsa', /credential path \(~\/\.ssh\)/],
    ['__HOME__/.ssh/id_rsa', /credential path \(~\/\.ssh\)/],
    ['./src/../.ssh/id_rsa', /credential path \(~\/\.ssh\)/],
    ['src/../../__BASE__/.ssh/id_rsa', /credential path \(~\/\.ssh\)/],
    ['.ssh//id_rsa', /credential path \(~\/\.ssh\)/],
    ['/proc/self/root__HOME__/.ssh/id_rsa', /credential path \(~\/\.ssh\)/],
    ['.ssh/', /credential path \(~\/\.ssh\)/],
    ['.aws/credentials', /credential path \(~\/\.aws\)/],
    ['.config/agentd/config.json', /agentd's own files \(~\/\.config\/agentd/],
    ['.local/share/agentd/agentd.db', /agentd's own files \(~\/\.local\/share\/agentd/],
    ['private/notes.txt', /sandbox\.denyRead \(~\/private\)/],
  ])('[F12 access-policy] read %s is asked in bypass, with allow rules, and shows nothing when refused', async (raw, reason) => {
    const file = raw.replace('__HOME__', w.home).replace('__BASE__', path.basename(w.home));
    for (const mode of ['bypass', 'acceptEdits'] as const) {
      const { questions, permit, text } = await attempt(readTool as Tool<never>, { path: file }, mode);
      expect(questions).toHaveLength(1);
      expect(questions[0]?.reason).toMatch(reason);
      expect(questions[0]?.always?.allow).toBeUndefined();
      expect(permit.allowed).toBe(false);
      expect(leaksSecret(text)).toBe(false);
    }
  });

  it.each([
    ['a link to .ssh', 'keys', '.ssh', 'keys/id_rsa'],
    ["a link to agentd's config.json", 'settings.json', '.config/agentd/config.json', 'settings.json'],
    ['a link to the denyRead folder', 'notes', 'private', 'notes/notes.txt'],
  ])('[F12 access-policy] %s in the workspace is asked about as its target', async (_what, link, target, read) => {
    fs.symlinkSync(path.join(w.home, target), path.join(w.home, link));
    const { questions, permit } = await attempt(readTool as Tool<never>, { path: read }, 'bypass');
    expect(questions).toHaveLength(1);
    expect(questions[0]?.title).toContain('resolves to');
    expect(permit.allowed).toBe(false);
  });

  it('[F12 access-policy] a credential folder that is itself a link is hidden where it really lies', async () => {
    const elsewhere: TempDir = makeTempDir('agentd-f12-keys-');
    try {
      fs.renameSync(path.join(w.home, '.ssh'), path.join(elsewhere.dir, 'keys'));
      fs.symlinkSync(path.join(elsewhere.dir, 'keys'), path.join(w.home, '.ssh'));
      const { questions, permit } = await attempt(readTool as Tool<never>, { path: path.join(elsewhere.dir, 'keys', 'id_rsa') }, 'bypass');
      expect(questions).toHaveLength(1);
      expect(questions[0]?.reason).toMatch(/credential path \(~\/\.ssh\)/);
      expect(permit.allowed).toBe(false);
    } finally {
      elsewhere.cleanup();
    }
  });

  it.each([
    ['ls .ssh', lsTool, { path: '.ssh' }],
    ['ls ~/.aws', lsTool, { path: '~/.aws' }],
    ['glob * in .ssh', globTool, { pattern: '*', path: '.ssh' }],
    ['grep in .ssh', grepTool, { pattern: 'PRIVATE', path: '.ssh' }],
    ["grep in agentd's config folder", grepTool, { pattern: 'PRIVATE', path: '.config/agentd' }],
  ])('[F12 access-policy] %s is asked in bypass', async (_what, tool, args) => {
    const { questions, permit } = await attempt(tool as Tool<never>, args, 'bypass');
    expect(questions).toHaveLength(1);
    expect(permit.allowed).toBe(false);
  });

  it.skipIf(!hasRipgrep).each([
    ['grep over .', { pattern: 'PRIVATE' }, true],
    ['grep over ~', { pattern: 'PRIVATE', path: '~' }, true],
    ['grep with glob ** (rg: a glob overrides hidden-file skipping)', { pattern: 'PRIVATE', glob: '**' }, true],
    ['grep with glob .ssh/*', { pattern: 'PRIVATE', glob: '.ssh/*' }, false],
    ['grep with glob **/credentials', { pattern: 'PRIVATE', glob: '**/credentials' }, false],
    ['grep with glob private/**', { pattern: 'PRIVATE', glob: 'private/**' }, false],
    ['grep with glob {.ssh,src}/**', { pattern: 'PRIVATE', glob: '{.ssh,src}/**' }, true],
    ['grep, files mode', { pattern: 'PRIVATE', mode: 'files', glob: '**' }, true],
    ['grep, count mode', { pattern: 'PRIVATE', mode: 'count', glob: '**' }, true],
    ['grep with context', { pattern: 'PRIVATE', context: 3, glob: '**' }, true],
  ])('[F12 access-policy] %s in the home workspace finds no secret, and says what it left out', async (_what, args, findsPublic) => {
    const { questions, permit, text } = await attempt(grepTool as Tool<never>, args, 'bypass');
    expect(questions).toHaveLength(0);
    expect(permit.allowed).toBe(true);
    if (findsPublic) expect(text).toContain('src/app.ts');
    else expect(text).toMatch(/^No matches for PRIVATE/);
    expect(leaksSecret(text)).toBe(false);
    expect(text).toMatch(/Not searched or listed inside .*private.*the sandbox hides from bash/);
  });

  it.skipIf(!hasRipgrep).each([
    ['**/*', 'src/app.ts'],
    ['**/id_rsa', undefined],
    ['.ssh/*', undefined],
    ['**/credentials', undefined],
    ['private/*', undefined],
    ['**/config.json', undefined],
    ['**/*.txt', undefined],
  ])('[F12 access-policy] glob %s lists nothing inside a hidden path', async (pattern, expected) => {
    const { questions, text } = await attempt(globTool as Tool<never>, { pattern }, 'bypass');
    expect(questions).toHaveLength(0);
    // The first line of an empty result echoes the pattern; the rest must name no hidden file.
    const listed = text.startsWith('No files match') ? text.split('\n').slice(1).join('\n') : text;
    expect(listed).not.toMatch(/id_rsa|\.aws\/credentials|notes\.txt|config\.json|agentd\.db/);
    if (expected) expect(text).toContain(expected);
    else expect(text).toMatch(/^No files match/);
  });

  it('[F12 access-policy] ls of the home shows the names, never what is inside, and the note says why', async () => {
    const { questions, text } = await attempt(lsTool as Tool<never>, {}, 'bypass');
    expect(questions).toHaveLength(0);
    expect(text).toContain('.ssh/');
    expect(text).not.toMatch(/id_rsa|\.aws\/credentials|notes\.txt/);
    expect(text).toMatch(/Not searched or listed inside .*\.ssh.*Reading inside them asks the user/);
  });

  it('[F12 access-policy] a deny rule refuses without asking, in bypass too', async () => {
    const h = harness('bypass', 'allow_once', [{ deny: ['read(.ssh/**)'] }]);
    const { permit } = await h.run(readTool, { path: '.ssh/id_rsa' });
    expect(h.questions).toHaveLength(0);
    expect(permit).toMatchObject({ allowed: false, reason: expect.stringContaining('credential path (~/.ssh)') });
  });

  it('[F12 access-policy] the deny mode refuses without asking, and a headless session is refused', async () => {
    const denied = await attempt(readTool as Tool<never>, { path: '.ssh/id_rsa' }, 'deny');
    expect(denied.questions).toHaveLength(0);
    expect(denied.permit).toMatchObject({ allowed: false, reason: expect.stringContaining('which the sandbox hides from bash') });
    const headless = harness('bypass', 'no_client');
    const { permit } = await headless.run(readTool, { path: '.ssh/id_rsa' });
    expect(permit).toMatchObject({ allowed: false, reason: expect.stringContaining('no client can be asked') });
  });

  it('[F12 access-policy] when the user says yes to the one call, the tool reads exactly that file', async () => {
    const h = harness('bypass', 'allow_once');
    const { result } = await h.run(readTool, { path: '~/.ssh/id_rsa' });
    expect(h.questions).toHaveLength(1);
    expect(textOf(result!)).toContain('PRIVATE-ssh-key-1');
  });

  it('[F12 access-policy] a link swapped to .ssh after an ordinary read was allowed is asked again at run time', async () => {
    fs.symlinkSync(path.join(w.home, 'src', 'app.ts'), path.join(w.home, 'current'));
    const h = sessionPermissionHarness({
      cwd: w.home,
      dataDir: w.paths.dataDir,
      mode: 'bypass',
      answer: () => 'reject_once',
      sandboxPolicy: w.policy,
      beforeExecute: () => {
        fs.unlinkSync(path.join(w.home, 'current'));
        fs.symlinkSync(path.join(w.home, '.ssh', 'id_rsa'), path.join(w.home, 'current'));
      },
    });
    const { permit, result } = await h.run(readTool, { path: 'current' });
    expect(permit.allowed).toBe(true);
    expect(h.questions).toHaveLength(1);
    expect(h.questions[0]?.reason).toMatch(/credential path/);
    expect(result?.isError).toBe(true);
    expect(leaksSecret(textOf(result!))).toBe(false);
  });

  it("[F12 access-policy] the read tool's own check asks its gate for a hidden path inside the workspace", async () => {
    const gate = recordingGate('deny');
    const ctx = makeContext(w.home, { permission: gate, dataDir: w.paths.dataDir, settings: { sandboxPolicy: w.policy } });
    const result = await readTool.execute({ path: '.ssh/id_rsa' }, ctx);
    expect(gate.requests).toHaveLength(1);
    expect(gate.requests[0]?.reason).toMatch(/credential path \(~\/\.ssh\)/);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Permission denied: .*\.ssh\/id_rsa is inside a credential path/);
  });

  it.skipIf(!hasRipgrep)('[F12 access-policy] ordinary files are still read and searched without a question in the ask mode', async () => {
    const h = harness('ask', 'reject_once', []);
    const read = await h.run(readTool, { path: 'src/app.ts' });
    const grep = await h.run(grepTool, { pattern: 'public', path: 'src' });
    expect(h.questions).toHaveLength(0);
    expect(textOf(read.result!)).toContain(PUBLIC_TEXT);
    expect(textOf(grep.result!)).toContain('src/app.ts');
    expect(textOf(grep.result!)).not.toContain('Not searched');
  });

  it("[F12 access-policy] the session's own tool-output folder stays readable, as the sandbox binds it", async () => {
    const log = path.join(toolOutputDir(w.paths.dataDir, 'session-escape'), 'bash-1.log');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    fs.writeFileSync(log, 'full output\n');
    const other = path.join(toolOutputDir(w.paths.dataDir, 'another-session'), 'bash-1.log');
    fs.mkdirSync(path.dirname(other), { recursive: true });
    fs.writeFileSync(other, 'not yours\n');
    const h = harness('bypass');
    const own = await h.run(readTool, { path: log });
    expect(h.questions).toHaveLength(0);
    expect(textOf(own.result!)).toContain('full output');
    const theirs = await h.run(readTool, { path: other });
    expect(h.questions).toHaveLength(1);
    expect(theirs.permit.allowed).toBe(false);
  });

  it('[F12 access-policy] a host socket directory (/run) is asked about outside the workspace, and not inside one below it', async () => {
    const socketDir: TempDir = makeTempDir('agentd-f12-run-');
      const run = socketDir.dir;
    try {
      fs.writeFileSync(path.join(run, 'secrets'), 'PRIVATE-run-secret');
      fs.mkdirSync(path.join(run, 'media', 'stick'), { recursive: true });
      fs.writeFileSync(path.join(run, 'media', 'stick', 'notes.md'), 'on the stick');
      const { policy } = buildSandboxPolicy({ paths: w.paths, config: {}, env: w.env, socketDirs: [run] });
      const outside = sessionPermissionHarness({ cwd: w.home, dataDir: w.paths.dataDir, mode: 'bypass', answer: () => 'reject_once', sandboxPolicy: policy });
      const refused = await outside.run(readTool, { path: path.join(run, 'secrets') });
      expect(outside.questions[0]?.reason).toMatch(/a host socket directory/);
      expect(refused.permit.allowed).toBe(false);
      const stick = path.join(run, 'media', 'stick');
      const inside = sessionPermissionHarness({ cwd: stick, dataDir: w.paths.dataDir, mode: 'ask', answer: () => 'reject_once', sandboxPolicy: policy });
      const read = await inside.run(readTool, { path: 'notes.md' });
      expect(inside.questions).toHaveLength(0);
      expect(textOf(read.result!)).toContain('on the stick');
      // A denyRead folder on the stick stays out of a search of the stick, though /run holds both.
      fs.mkdirSync(path.join(stick, 'keys'));
      fs.writeFileSync(path.join(stick, 'keys', 'k'), 'PRIVATE-stick-key');
      const denied = buildSandboxPolicy({ paths: w.paths, config: { sandbox: { denyRead: [path.join(stick, 'keys')] } }, env: w.env, socketDirs: [run] });
      const search = sessionPermissionHarness({ cwd: stick, dataDir: w.paths.dataDir, mode: 'ask', answer: () => 'reject_once', sandboxPolicy: denied.policy });
      const grep = await search.run(grepTool, { pattern: 'PRIVATE', glob: '**' });
      expect(textOf(grep.result!)).not.toContain('PRIVATE-stick-key');
    } finally {
      socketDir.cleanup();
    }
  });
});
