import { connect } from 'node:net';
import { AgentdClient, AgentdClientError } from '../../clients/typescript/src/index.js';
import { ErrorCodes, type SessionUpdate } from '../../protocol/index.js';
import type { PermissionMode } from '../tools/permissions/permission-mode.js';
import { headlessPermissionAnswer } from './headless-permission-answer.js';

export interface SocketPromptOptions {
  /** The socket of the daemon that owns the data directory. */
  socketPath: string;
  cwd: string;
  text: string;
  /** `--model provider/model`, set on the new session before the prompt. */
  model?: string;
  /** `--permission-mode`: how this client answers the daemon's permission questions. */
  permissionMode: PermissionMode;
  version: string;
  /** Each streamed event with its sessionId, shaped like the in-process run's (`text_delta`, `turn_end`, …). */
  onEvent(event: Record<string, unknown>): void;
  /** Aborting sends `session/cancel`; the prompt then answers `cancelled`. */
  signal: AbortSignal;
}

export interface SocketPromptOutcome {
  sessionId: string;
  stopReason: string;
  budgetExceeded?: string;
}

/**
 * `agentd run` as a client of the daemon that owns the data directory, through the
 * TypeScript client: initialize, session/new in the run's cwd, the model if given,
 * session/prompt, streaming what the daemon sends and answering its permission questions
 * as a headless run would. Error answers are thrown as AgentdClientError; a daemon that
 * goes away mid-prompt as AgentdConnectionClosedError.
 */
export async function promptThroughSocket(options: SocketPromptOptions): Promise<SocketPromptOutcome> {
  const socket = connect(options.socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error) => reject(new Error(`cannot connect to the daemon at ${options.socketPath}: ${error.message}`)));
  });
  const client = new AgentdClient(socket, socket);
  let sessionId = '';
  client.onRequest('session/request_permission', (params) => {
    const answer = headlessPermissionAnswer(options.permissionMode, params, options.cwd);
    // No answer: the daemon falls back to "no client can be asked", as in-process.
    if (!answer) throw new AgentdClientError(ErrorCodes.MethodNotFound, `agentd run --permission-mode ${options.permissionMode} answers no such question`);
    return { outcome: { outcome: 'selected', optionId: answer } };
  });
  client.onNotification('agentd/event', (params) => {
    if (params.sessionId === sessionId) options.onEvent({ sessionId, ...params.event });
  });
  client.onNotification('session/update', (params) => {
    if (params.sessionId === sessionId) options.onEvent({ sessionId, ...fromUpdate(params.update) });
  });
  try {
    await client.initialize({
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: 'agentd-run', version: options.version },
      _meta: { agentd: { events: true } },
    });
    ({ sessionId } = await client.newSession({ cwd: options.cwd, mcpServers: [] }));
    if (options.model) await client.setConfigOption({ sessionId, configId: 'model', value: options.model });
    const onAbort = (): void => client.cancel({ sessionId });
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await client.prompt({ sessionId, prompt: [{ type: 'text', text: options.text }] });
      const budgetExceeded = (answer._meta as { agentd?: { message?: unknown } } | undefined)?.agentd?.message;
      return { sessionId, stopReason: answer.stopReason, ...(typeof budgetExceeded === 'string' ? { budgetExceeded } : {}) };
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
  } finally {
    client.close();
    socket.destroy();
  }
}

/** ACP updates as the in-process run's events: text and thinking as deltas, the rest as is. */
function fromUpdate(update: SessionUpdate): Record<string, unknown> {
  if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') return { type: 'text_delta', messageId: update.messageId, text: update.content.text };
  if (update.sessionUpdate === 'agent_thought_chunk' && update.content.type === 'text') return { type: 'thinking_delta', messageId: update.messageId, text: update.content.text };
  return { type: 'update', update };
}
