import { connect } from 'node:net';
import { DEFAULT_MAX_FRAME_BYTES } from '../config/config-schema.js';
import type { PermissionMode } from '../tools/permissions/permission-mode.js';
import { headlessPermissionAnswer, type PermissionRequestSeen } from './headless-permission-answer.js';
import { JsonRpcConnection } from './json-rpc-connection.js';
import { RpcError } from './rpc-error.js';

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
 * `agentd run` as a client of the daemon that owns the data directory: initialize,
 * session/new in the run's cwd, the model if given, session/prompt, streaming what the
 * daemon sends and answering its permission questions as a headless run would. Error
 * answers are thrown as RpcError.
 */
export async function promptThroughSocket(options: SocketPromptOptions): Promise<SocketPromptOutcome> {
  const socket = connect(options.socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error) => reject(new Error(`cannot connect to the daemon at ${options.socketPath}: ${error.message}`)));
  });
  const rpc = new JsonRpcConnection(socket, socket, { label: 'owner', maxFrameBytes: DEFAULT_MAX_FRAME_BYTES });
  let sessionId = '';
  rpc.setHandler({
    request(method, params) {
      if (method !== 'session/request_permission') return Promise.reject(RpcError.methodNotFound(method));
      const answer = headlessPermissionAnswer(options.permissionMode, params as PermissionRequestSeen, options.cwd);
      if (!answer) {
        // No answer: the daemon falls back to "no client can be asked", as in-process.
        return Promise.reject(RpcError.methodNotFound(method, `agentd run --permission-mode ${options.permissionMode} answers no such question`));
      }
      return Promise.resolve({ outcome: { outcome: 'selected', optionId: answer } });
    },
    notification(method, params) {
      const p = params as { sessionId?: string; update?: Record<string, unknown>; event?: Record<string, unknown> };
      if (p.sessionId !== sessionId) return;
      if (method === 'agentd/event' && p.event) options.onEvent({ sessionId, ...p.event });
      if (method === 'session/update' && p.update) options.onEvent({ sessionId, ...fromUpdate(p.update) });
    },
  });
  const closed = new Promise<never>((_, reject) => rpc.onClose(() => reject(new Error(`the daemon at ${options.socketPath} closed the connection`))));
  closed.catch(() => undefined);
  const call = (method: string, params: unknown): Promise<unknown> => Promise.race([rpc.request(method, params), closed]);
  try {
    await call('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: 'agentd-run', version: options.version },
      _meta: { agentd: { events: true } },
    });
    ({ sessionId } = (await call('session/new', { cwd: options.cwd, mcpServers: [] })) as { sessionId: string });
    if (options.model) await call('session/set_config_option', { sessionId, configId: 'model', value: options.model });
    const onAbort = (): void => rpc.notify('session/cancel', { sessionId });
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = (await call('session/prompt', { sessionId, prompt: [{ type: 'text', text: options.text }] })) as {
        stopReason: string;
        _meta?: { agentd?: { message?: string } };
      };
      const budgetExceeded = answer._meta?.agentd?.message;
      return { sessionId, stopReason: answer.stopReason, ...(budgetExceeded ? { budgetExceeded } : {}) };
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
  } finally {
    rpc.close();
    socket.destroy();
  }
}

/** ACP updates as the in-process run's events: text and thinking as deltas, the rest as is. */
function fromUpdate(update: Record<string, unknown>): Record<string, unknown> {
  const content = update.content as { type?: string; text?: string } | undefined;
  const messageId = update.messageId;
  if (update.sessionUpdate === 'agent_message_chunk' && content?.type === 'text') return { type: 'text_delta', messageId, text: content.text };
  if (update.sessionUpdate === 'agent_thought_chunk' && content?.type === 'text') return { type: 'thinking_delta', messageId, text: content.text };
  return { type: 'update', update };
}
