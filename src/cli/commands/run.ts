import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { detectLocalServers } from '../../providers/detect-local-servers.js';
import { ModelNotConfiguredError } from '../../session/model-not-configured-error.js';
import { TurnFailedError } from '../../session/session.js';
import { startSessionMcp } from '../../server/handlers/session-mcp.js';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { ErrorCodes } from '../../../protocol/index.js';
import { AgentdClientError } from '../../../clients/typescript/src/index.js';
import { promptThroughSocket } from '../prompt-through-socket.js';
import { startDaemon } from '../../server/start-daemon.js';
import { isSocketLive } from '../../server/transports/unix-socket-transport.js';
import { noClientAsker } from '../../session/permission-asker.js';
import { DataDirBusyError, describeOwner, tryLockDataDir, type DataDirOwner } from '../../store/data-dir-lock.js';
import { parsePermissionMode, type PermissionMode } from '../../tools/permissions/permission-mode.js';
import { packageVersion } from '../package-version.js';
import { readStdin } from '../read-stdin.js';

/**
 * `agentd run "PROMPT"`: one prompt, headless; the answer streams to stdout (`--json`:
 * one event per line). In-process, unless a daemon owns the data directory: then the
 * prompt runs there, through its socket. Exit 0 on a finished turn, 1 on a failure,
 * 3 when no provider is configured, 130 when interrupted.
 */
export async function runCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      model: { type: 'string', short: 'm' },
      cwd: { type: 'string' },
      json: { type: 'boolean' },
      config: { type: 'string' },
      'permission-mode': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new Error('agentd run needs a prompt: agentd run "PROMPT", or agentd run - to read it from stdin');
  const text = positionals.length === 1 && positionals[0] === '-' ? await readStdin() : positionals.join(' ');
  if (text.trim() === '') throw new Error('the prompt is empty');
  const cwd = resolve(values.cwd ?? process.cwd());
  const permissionMode = values['permission-mode'] ? parsePermissionMode(values['permission-mode']) : undefined;

  const dataDir = resolveAgentdPaths(process.env).dataDir;
  const attempt = tryLockDataDir(dataDir);
  if (attempt.kind === 'held') return runThroughOwner(dataDir, attempt.owner, { cwd, text, json: values.json === true, permissionMode: permissionMode ?? 'ask', ...(values.model ? { model: values.model } : {}) });

  const started = await startDaemon({
    lock: attempt.lock,
    cwd,
    env: process.env,
    version: packageVersion(),
    ...(values.config ? { configFile: values.config } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    // Headless: nobody to ask, so whatever would ask follows the permission mode's refusal.
    asker: noClientAsker,
  });
  // The session follows its own cwd's project config, like a session of the shared daemon.
  const session = started.daemon.sessions.create({ cwd });
  await startSessionMcp(started.daemon, session, []);
  const write = (s: string): boolean => process.stdout.write(s);
  let endsWithNewline = true;
  session.subscribe((event) => {
    if (values.json) {
      write(JSON.stringify({ sessionId: session.id, ...event }) + '\n');
    } else if (event.type === 'text_delta') {
      write(event.text);
      endsWithNewline = event.text.endsWith('\n');
    }
  });
  const onSignal = (): void => session.cancel();
  process.once('SIGINT', onSignal);
  try {
    const { stopReason, budgetExceeded } = await session.prompt([{ type: 'text', text }]);
    if (budgetExceeded) process.stderr.write(`agentd: ${budgetExceeded}\n`);
    if (!values.json && !endsWithNewline) write('\n');
    if (values.json) write(JSON.stringify({ sessionId: session.id, type: 'result', stopReason }) + '\n');
    return stopReason === 'cancelled' ? 130 : 0;
  } catch (error) {
    if (error instanceof ModelNotConfiguredError) {
      process.stderr.write(`agentd: ${error.message}\n${await describeLocalServers()}`);
      return 3;
    }
    if (error instanceof TurnFailedError) {
      if (!endsWithNewline) write('\n');
      process.stderr.write(`agentd: the model failed: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onSignal);
    await started.shutdown();
  }
}

/** The prompt runs in the daemon that owns the data directory, as one of its clients. */
async function runThroughOwner(
  dataDir: string,
  owner: DataDirOwner | undefined,
  run: { cwd: string; text: string; json: boolean; permissionMode: PermissionMode; model?: string },
): Promise<number> {
  if (!owner?.socketPath || !(await isSocketLive(owner.socketPath))) throw new DataDirBusyError(dataDir, owner);
  process.stderr.write(`agentd: ${describeOwner(dataDir, owner)}; running the prompt there (its config applies)\n`);
  const write = (s: string): boolean => process.stdout.write(s);
  let endsWithNewline = true;
  const cancel = new AbortController();
  const onSignal = (): void => cancel.abort();
  process.once('SIGINT', onSignal);
  try {
    const outcome = await promptThroughSocket({
      socketPath: owner.socketPath,
      cwd: run.cwd,
      text: run.text,
      permissionMode: run.permissionMode,
      version: packageVersion(),
      signal: cancel.signal,
      ...(run.model ? { model: run.model } : {}),
      onEvent(event) {
        if (run.json) write(JSON.stringify(event) + '\n');
        else if (event.type === 'text_delta' && typeof event.text === 'string') {
          write(event.text);
          endsWithNewline = event.text.endsWith('\n');
        }
      },
    });
    const sessionId = outcome.sessionId;
    if (outcome.budgetExceeded) process.stderr.write(`agentd: ${outcome.budgetExceeded}\n`);
    if (!run.json && !endsWithNewline) write('\n');
    if (run.json) write(JSON.stringify({ sessionId, type: 'result', stopReason: outcome.stopReason }) + '\n');
    return outcome.stopReason === 'cancelled' ? 130 : 0;
  } catch (error) {
    if (!(error instanceof AgentdClientError)) throw error;
    if (!endsWithNewline) write('\n');
    if (error.code === ErrorCodes.ProviderNotConfigured) {
      process.stderr.write(`agentd: ${error.message}\n`);
      return 3;
    }
    process.stderr.write(`agentd: ${error.code === ErrorCodes.ProviderError ? 'the model failed: ' : ''}${error.message}\n`);
    return 1;
  } finally {
    process.removeListener('SIGINT', onSignal);
  }
}

async function describeLocalServers(): Promise<string> {
  const servers = await detectLocalServers();
  if (servers.length === 0) return 'No local server answered on the default ports of Ollama (11434) or LM Studio (1234).\n';
  return servers
    .map((s) => {
      const example = s.models[0] ? `agentd run --model ${s.provider}/${s.models[0]} "..."` : `(no models loaded)`;
      return `Found ${s.name} at ${s.baseUrl}: ${s.models.join(', ') || 'no models'}\n  use it with: ${example}\n`;
    })
    .join('');
}
