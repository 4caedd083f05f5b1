import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type ProcessResult } from '../support/run-process.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';

/*
 * A bed for checking docs/editors.md against the third-party ACP clients it documents
 * (agent-shell, CodeCompanion.nvim, avante.nvim), each in its real editor: a fresh daemon
 * whose model is the loopback replay server, an `agentd` command on PATH (the bundled
 * CLI, so `agentd acp` is what the editor spawns, exactly as the doc says), the plugin
 * checkouts, and the configuration block copied out of docs/editors.md, so the text a
 * user copies is the text that runs.
 *
 * These plugins need newer editors than Debian stable ships (Neovim 0.11+, Emacs 29.1+)
 * and come from GitHub, which CI cannot reach; so this is `npm run check:acp-editors`,
 * run by hand like a benchmark, with its last results in docs/editors.md. It fails, never
 * skips, when something is missing, and says what to set.
 *
 *   AGENTD_EDITOR_PLUGINS  a folder with the plugin checkouts, named as their repositories
 *                          (agent-shell, acp.el, shell-maker, codecompanion.nvim, ...)
 *   AGENTD_EDITOR_ROOT     optional: a Debian root (debootstrap sid) whose nvim and emacs
 *                          run under bwrap, for a host whose own editors are too old
 */

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const EDITORS_DOC = join(PROJECT, 'docs/editors.md');
const CLI = join(PROJECT, 'dist/bin/agentd.cjs');
/** Where the host's node appears inside AGENTD_EDITOR_ROOT. */
const NODE_IN_ROOT = '/usr/local/bin/node';

export interface AcpEditorBed {
  cd: ClientDaemon;
  /** A scratch folder for the scenario's summary and config files. */
  scratch: string;
  /** The editor's environment: the daemon's, with `agentd` first on PATH. */
  env: NodeJS.ProcessEnv;
  /** Runs `editor ARGS` (in AGENTD_EDITOR_ROOT when set) in the workspace. */
  runEditor(editor: 'nvim' | 'emacs', args: string[], extraEnv?: Record<string, string>, timeoutMs?: number): Promise<ProcessResult>;
  close(): Promise<void>;
}

/** The plugin checkouts folder, or an error saying how to make one. */
export function pluginsDir(): string {
  const dir = process.env.AGENTD_EDITOR_PLUGINS;
  if (!dir) throw new Error('AGENTD_EDITOR_PLUGINS is not set: point it at a folder of plugin checkouts (see docs/editors.md, "How this is checked")');
  return resolve(dir);
}

/** A plugin's checkout in AGENTD_EDITOR_PLUGINS, or an error naming the repository to clone. */
export function pluginPath(name: string, repository: string): string {
  const path = join(pluginsDir(), name);
  if (!existsSync(path)) throw new Error(`${path} is missing: git clone https://github.com/${repository} ${path}`);
  return path;
}

/**
 * The first ```LANG block under the `## HEADING` section of docs/editors.md: the
 * configuration the doc tells a user to copy.
 */
export function docSnippet(heading: string, lang: string): string {
  const doc = readFileSync(EDITORS_DOC, 'utf8');
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/editors.md has no "## ${heading}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  if (!block) throw new Error(`docs/editors.md "## ${heading}" has no \`\`\`${lang} block`);
  return block[1]!;
}

/** The editor's version line (`NVIM v0.12.4`, `GNU Emacs 30.2`), run as the bed runs it. */
export async function editorVersion(editor: 'nvim' | 'emacs'): Promise<string> {
  const run = await spawnEditor(editor, ['--version'], { env: process.env, cwd: tmpdir(), timeoutMs: 20_000 }, []);
  return run.stdout.split('\n')[0]!.trim();
}

export async function startAcpEditorBed(): Promise<AcpEditorBed> {
  // Trusted so a scenario's project config may change the workspace's permission rules.
  const cd = await startClientDaemon({}, { trustWorkspace: true });
  const scratch = mkdtempSync(join(tmpdir(), 'agentd-acp-editor-'));
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  const node = process.env.AGENTD_EDITOR_ROOT ? NODE_IN_ROOT : process.execPath;
  writeFileSync(join(bin, 'agentd'), `#!/bin/sh\nexec "${node}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'agentd'), 0o755);
  const env: NodeJS.ProcessEnv = { ...cd.env, PATH: `${bin}:${cd.env.PATH ?? '/usr/bin:/bin'}`, HOME: join(scratch, 'home') };
  mkdirSync(env.HOME!);
  return {
    cd,
    scratch,
    env,
    runEditor: (editor, args, extraEnv = {}, timeoutMs = 90_000) =>
      spawnEditor(editor, args, { env: { ...env, ...extraEnv }, cwd: cd.workspace, timeoutMs }, [scratch]),
    async close() {
      await cd.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Spawns the editor on the host, or in AGENTD_EDITOR_ROOT with the project, tmp and plugins bound at their own paths. */
function spawnEditor(
  editor: 'nvim' | 'emacs',
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number },
  extraBinds: string[],
): Promise<ProcessResult> {
  const root = process.env.AGENTD_EDITOR_ROOT;
  if (!root) return runProcess(editor, args, options);
  const binds = [PROJECT, tmpdir(), ...(process.env.AGENTD_EDITOR_PLUGINS ? [pluginsDir()] : []), ...extraBinds];
  // A worktree's node_modules may be a symlink to another checkout's: bind its target too, or the CLI finds no packages.
  const modules = realpathSync(join(PROJECT, 'node_modules'));
  if (!modules.startsWith(resolve(PROJECT) + '/')) binds.push(modules);
  const bwrapArgs = ['--bind', resolve(root), '/', '--dev', '/dev', '--proc', '/proc', '--ro-bind', process.execPath, NODE_IN_ROOT];
  for (const path of binds) bwrapArgs.push('--bind', path, path);
  bwrapArgs.push('--chdir', options.cwd, editor, ...args);
  return runProcess('bwrap', bwrapArgs, options);
}
