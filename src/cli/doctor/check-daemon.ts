import { lstatSync } from 'node:fs';
import { createConnection } from 'node:net';
import { AgentdClient, AgentdClientError } from '../../../clients/typescript/src/index.js';
import { checkSocketPath, UnsafeSocketPathError } from '../../../protocol/wire/check-socket-path.js';
import { failCheck, okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/** How long a live daemon gets to answer `initialize`. */
const ANSWER_TIMEOUT_MS = 3000;

/** What happened when doctor spoke to the socket. */
type Probe =
  | { kind: 'answered'; version: string }
  | { kind: 'refused'; code: string }
  | { kind: 'silent' }
  | { kind: 'garbled'; reason: string };

/**
 * Whether a daemon answers on the socket: connects and sends an ACP `initialize` as one
 * NDJSON line (the default framing), then reads the answer's `agentInfo.version`. No
 * daemon is fine (`agentd acp` starts one on demand); something that accepts the
 * connection but does not answer like agentd is a warning, since it blocks that path.
 */
export async function checkDaemon(socketPath: string, timeoutMs = ANSWER_TIMEOUT_MS): Promise<DoctorCheck> {
  const id = 'daemon';
  const title = 'daemon';
  // Doctor speaks to the socket only when no other user could have put it there.
  try {
    checkSocketPath(socketPath, { action: 'connect to' });
  } catch (error) {
    if (!(error instanceof UnsafeSocketPathError)) throw error;
    return failCheck(id, title, error.problem, error.fix);
  }
  const kind = socketKind(socketPath);
  if (kind === 'missing') {
    return okCheck(id, title, `no daemon running on ${socketPath}; \`agentd acp\` starts one when an editor connects, or run \`agentd serve --socket\``);
  }
  if (kind === 'other') {
    return warnCheck(id, title, `${socketPath} exists but is not a socket`, `move ${socketPath} aside; the daemon creates its socket there`);
  }
  const probe = await probeSocket(socketPath, timeoutMs);
  if (probe.kind === 'answered') return okCheck(id, title, `agentd ${probe.version} answers on ${socketPath}`);
  if (probe.kind === 'refused') {
    return okCheck(id, title, `no daemon running; ${socketPath} is left from an earlier one (${probe.code}) and the next daemon replaces it`);
  }
  const what = probe.kind === 'silent' ? `did not answer initialize within ${timeoutMs} ms` : `did not answer like agentd (${probe.reason})`;
  return warnCheck(id, title, `a process accepts connections on ${socketPath} but ${what}`, `find it with \`ss -xlp | grep ${socketPath}\` and stop it; a hung agentd can be killed and restarted with \`agentd serve --socket\``);
}

function socketKind(socketPath: string): 'missing' | 'socket' | 'other' {
  try {
    return lstatSync(socketPath).isSocket() ? 'socket' : 'other';
  } catch {
    return 'missing';
  }
}

function probeSocket(socketPath: string, timeoutMs: number): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    let client: AgentdClient | undefined;
    let done = false;
    let connected = false;
    const finish = (probe: Probe): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      client?.close();
      socket.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => finish({ kind: 'silent' }), timeoutMs);
    socket.once('connect', () => {
      connected = true;
      // The TypeScript client, as every other client of agentd in this repository.
      client = new AgentdClient(socket, socket, {
        onProtocolError: (error) => finish({ kind: 'garbled', reason: error.message.replace(/^agentd client: (received a line that is )?/, '') }),
      });
      client.initialize({ protocolVersion: 1, clientCapabilities: {} }).then(
        (result) => finish(readAnswer(result)),
        (error: unknown) => finish({ kind: 'garbled', reason: error instanceof AgentdClientError ? `error: ${error.message}` : 'it closed the connection without an answer' }),
      );
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      // Before connecting: nobody listens. After: the listener hung up on us (EPIPE, ECONNRESET).
      finish(connected ? { kind: 'garbled', reason: `it closed the connection without an answer (${code})` } : { kind: 'refused', code });
    });
    socket.once('close', () => finish({ kind: 'garbled', reason: 'it closed the connection without an answer' }));
  });
}

function readAnswer(result: unknown): Probe {
  const info = (result as { agentInfo?: { name?: unknown; version?: unknown } } | null)?.agentInfo;
  if (info?.name === 'agentd' && typeof info.version === 'string') return { kind: 'answered', version: info.version };
  return { kind: 'garbled', reason: 'no agentInfo in the initialize answer' };
}
