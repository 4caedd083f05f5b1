import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AgentdClientError, type AgentdClient } from '../../../clients/typescript/src/index.js';
import { AgentdNewSessionMetaSchema, AgentdPromptResponseMetaSchema, ErrorCodes, readAgentdMeta, type StopReason } from '../../../protocol/index.js';
import { showControlCharacters } from '../../config/show-control-characters.js';
import { detectLocalServers } from '../../providers/detect-local-servers.js';
import { parsePermissionMode, type PermissionMode } from '../../tools/permissions/permission-modes.js';
import { inCliTerms } from '../describe-daemon-error.js';
import { headlessPermissionAnswer } from '../headless-permission-answer.js';
import { packageVersion } from '../package-version.js';
import { readStdin } from '../read-stdin.js';
import { openRunConnection } from '../run/open-run-connection.js';
import { askOnTerminal } from '../run/ask-on-terminal.js';
import { RunDisplay } from '../run/run-display.js';
import { queueDetachedRun } from '../run/queue-detached-run.js';

/** Exit codes of `agentd run`, by how the turn ended (also in `agentd run --help`). */
export const RUN_EXIT = {
  done: 0,
  failed: 1,
  noProvider: 3,
  maxTurns: 4,
  budget: 5,
  refusal: 6,
  maxTokens: 7,
  config: 78,
  cancelled: 130,
} as const;

/**
 * `agentd run "PROMPT"`: one prompt, as a client of a daemon (the owner of the data
 * directory through its socket, or one started in this process): the answer streams to
 * stdout, what happens around it to stderr (`--json`: the ACP updates and agentd events
 * as JSON-RPC lines, then a result line). `--session ID` or `--continue` go on with a
 * stored session; `--agent` picks its mode. Ctrl-C stops the turn (its partial answer is
 * stored); a second Ctrl-C exits at once. `--detach` queues the prompt in the running
 * daemon and exits at once (see queueDetachedRun).
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
      agent: { type: 'string' },
      session: { type: 'string' },
      continue: { type: 'boolean', short: 'c' },
      detach: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new Error('agentd run needs a prompt: agentd run "PROMPT", or agentd run - to read it from stdin');
  if (values.session && values.continue) throw new Error('agentd run: --session and --continue both pick the session; give one');
  const readsStdin = positionals.length === 1 && positionals[0] === '-';
  const text = readsStdin ? await readStdin() : positionals.join(' ');
  if (text.trim() === '') throw new Error('the prompt is empty');
  const cwd = resolve(values.cwd ?? process.cwd());
  const permissionMode: PermissionMode | undefined = values['permission-mode'] ? parsePermissionMode(values['permission-mode']) : undefined;
  if (values.detach) {
    if (permissionMode) {
      throw new Error(
        'agentd run --detach: --permission-mode answers the questions of a run that waits for its turn; a detached turn asks the clients following its session ' +
          '(with none, a question is refused). Leave out --permission-mode, or allow the tools in config.json "permissions"',
      );
    }
    const session = values.session ? { id: values.session } : values.continue ? { newestIn: cwd } : undefined;
    return queueDetachedRun({ text, cwd, json: values.json === true, ...(values.agent ? { agent: values.agent } : {}), ...(values.model ? { model: values.model } : {}), ...(session ? { session } : {}) });
  }
  const display = new RunDisplay(
    { stdout: (s) => void process.stdout.write(s), stderr: (s) => void process.stderr.write(s), spinner: process.stderr.isTTY === true },
    values.json === true,
  );

  const connection = await openRunConnection({
    cwd,
    env: process.env,
    version: packageVersion(),
    log: (line) => void process.stderr.write(`${line}\n`),
    ...(values.config ? { configFile: values.config } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(permissionMode ? { permissionMode } : {}),
  });
  const { client } = connection;
  let sessionId = '';
  /** This run made the session: one whose prompt never reached a model is deleted again. */
  let created = false;
  // Ctrl-C withdraws a question waiting on the terminal: the turn can then stop.
  const interrupted = new AbortController();
  const signals = watchInterrupts(() => {
    interrupted.abort();
    if (sessionId) client.cancel({ sessionId });
  });
  try {
    // Checked before a session is made for it: a session id is 36 characters.
    checkFrameSize({ sessionId: '0'.repeat(36), prompt: [{ type: 'text', text }] }, connection.maxFrameBytes);
    // On a terminal (the prompt not read from stdin), the user is asked. Headless, a question
    // is answered as --permission-mode says, or left to the daemon's refusal.
    const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true && !readsStdin;
    // Set while this run's own prompt runs: its --permission-mode answers for that prompt only,
    // never for another client's turn in the same session (an owner daemon asks every follower).
    let prompting = false;
    client.onRequest('session/request_permission', async (params, { signal }) => {
      if (!prompting || params.sessionId !== sessionId) {
        throw new AgentdClientError(ErrorCodes.MethodNotFound, 'agentd run answers only the questions of its own prompt; ask the client that sent this one');
      }
      const answer = headlessPermissionAnswer(permissionMode ?? 'ask', params, cwd);
      if (answer) return { outcome: { outcome: 'selected', optionId: answer } };
      if (interactive) {
        display.pause();
        const choice = await askOnTerminal(params, { input: process.stdin, output: process.stderr, cwd, signal: AbortSignal.any([signal, interrupted.signal]) });
        return choice === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: choice } };
      }
      throw new AgentdClientError(ErrorCodes.MethodNotFound, `agentd run --permission-mode ${permissionMode ?? 'ask'} answers no such question`);
    });
    await client.initialize({ protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'agentd-run', version: packageVersion() }, _meta: { agentd: { events: true } } });
    const problems = new Set<string>();
    ({ sessionId, created } = await chooseSession(client, cwd, { ...(values.session ? { id: values.session } : {}), continue: values.continue === true }, problems));
    // A daemon in this process logs its problems to stderr already; the shared daemon's log is elsewhere.
    if (connection.where === 'owner') for (const problem of problems) process.stderr.write(`agentd: warning: ${showControlCharacters(problem, { keep: '\n' })}\n`);
    // Attached only now: a loaded session's history is not this run's output.
    client.onNotification('session/update', (params) => params.sessionId === sessionId && display.update(sessionId, params.update));
    // The same problems come again as notices: said once.
    client.onNotification('agentd/event', (params) => params.sessionId === sessionId && !(params.event.type === 'notice' && problems.has(params.event.message)) && display.event(sessionId, params.event));
    if (values.agent) await client.setMode({ sessionId, modeId: values.agent });
    if (values.model && connection.where === 'owner') await client.setConfigOption({ sessionId, configId: 'model', value: values.model });

    display.waiting();
    prompting = true;
    const answer = await client.prompt({ sessionId, prompt: [{ type: 'text', text }] }).finally(() => (prompting = false));
    const budget = readAgentdMeta(AgentdPromptResponseMetaSchema.pick({ message: true }), answer)?.message;
    display.finish(sessionId, answer.stopReason, budget);
    if (budget !== undefined) {
      if (!values.json) process.stderr.write(`agentd: ${showControlCharacters(budget)}\n`);
      return RUN_EXIT.budget;
    }
    return exitCodeFor(answer.stopReason);
  } catch (error) {
    if (!(error instanceof AgentdClientError)) throw error;
    display.finish(sessionId, 'failed', error.message);
    if (error.code === ErrorCodes.ProviderNotConfigured) {
      // No provider or an unusable model: nothing was said, so no empty session is left behind.
      if (created) await client.deleteSession({ sessionId }).catch(() => undefined);
      process.stderr.write(`agentd: ${showControlCharacters(error.message, { keep: '\n' })}\n${showControlCharacters(await describeLocalServers(), { keep: '\n' })}`);
      return RUN_EXIT.noProvider;
    }
    // The daemon's message can quote a provider, a tool or a repository file: lines kept, every other control shown.
    process.stderr.write(`agentd: ${error.code === ErrorCodes.ProviderError ? 'the model failed: ' : ''}${showControlCharacters(inCliTerms(error), { keep: '\n' })}\n`);
    return error.code === ErrorCodes.InvalidParams && /config/.test(error.message) ? RUN_EXIT.config : RUN_EXIT.failed;
  } finally {
    signals.stop();
    await connection.close();
  }
}

/**
 * A prompt over the daemon's frame limit would only close the connection (the daemon
 * cannot read a message it refuses): say so before sending, naming the setting.
 */
function checkFrameSize(params: unknown, maxFrameBytes: number | undefined): void {
  if (maxFrameBytes === undefined) return;
  const bytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'session/prompt', params })) + 1;
  if (bytes <= maxFrameBytes) return;
  throw new Error(
    `agentd run: the prompt makes a message of ${bytes} bytes, over the daemon's frame limit server.maxFrameBytes = ${maxFrameBytes} bytes; ` +
      'send a smaller prompt (or a file path for the agent to read), or raise server.maxFrameBytes in config.json',
  );
}

/** `--session ID`, `--continue` (the newest session of this directory), or a new one. */
async function chooseSession(
  client: AgentdClient,
  cwd: string,
  pick: { id?: string; continue: boolean },
  problems: Set<string>,
): Promise<{ sessionId: string; created: boolean }> {
  // What the daemon says is wrong for this directory (a rejected config edit, agent files that failed to load).
  const collect = (answer: unknown): void => {
    // session/load's answer carries `problems` of the same shape as session/new's.
    for (const problem of readAgentdMeta(AgentdNewSessionMetaSchema.pick({ problems: true }), answer)?.problems ?? []) problems.add(problem);
  };
  let id = pick.id;
  if (pick.continue) {
    id = (await client.listSessions({ cwd })).sessions[0]?.sessionId;
    if (!id) throw new Error(`agentd run --continue: no session in ${cwd} yet; leave out --continue to start one`);
  }
  if (id) {
    collect(await client.loadSession({ sessionId: id, cwd, mcpServers: [] }));
    return { sessionId: id, created: false };
  }
  // The daemon's turn waits for MCP servers still starting (shown as "Start MCP server X").
  const answer = await client.newSession({ cwd, mcpServers: [] });
  collect(answer);
  return { sessionId: answer.sessionId, created: true };
}

function exitCodeFor(stopReason: StopReason): number {
  switch (stopReason) {
    case 'end_turn':
      return RUN_EXIT.done;
    case 'cancelled':
      return RUN_EXIT.cancelled;
    case 'max_turn_requests':
      return RUN_EXIT.maxTurns;
    case 'refusal':
      return RUN_EXIT.refusal;
    case 'max_tokens':
      return RUN_EXIT.maxTokens;
    default:
      return RUN_EXIT.done;
  }
}

/** First Ctrl-C: stop the turn (the run then ends with what was said so far). Second: exit now. */
function watchInterrupts(stopTurn: () => void): { stop(): void } {
  let interrupted = false;
  const onSignal = (): void => {
    if (interrupted) process.exit(RUN_EXIT.cancelled);
    interrupted = true;
    process.stderr.write('\nagentd: stopping the turn (Ctrl-C again to quit at once)\n');
    stopTurn();
  };
  process.on('SIGINT', onSignal);
  return { stop: () => process.removeListener('SIGINT', onSignal) };
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
