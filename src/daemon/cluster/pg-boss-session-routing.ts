import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { ErrorCodes, type ParamsOf, type ResultOf } from '../../../protocol/index.js';
import { sessionErrorToRpc } from '../../server/session-error-to-rpc.js';
import { RequestNotTakenError, type ForwardTarget, type RoutedMethod } from '../../server/session-routing.js';
import { RpcError } from '../../server/wire/rpc-error.js';
import type { SessionManager } from '../../session/session-manager.js';
import type { DaemonSessionRouting } from './daemon-session-routing.js';
import type { PgBossConnection } from './pg-boss-connection.js';
import type { PermissionReply } from './permission-question-messages.js';
import { RunAgainWhenAsked } from './run-again-when-asked.js';
import { runRoutedRequest, type RoutedRequest } from './run-routed-request.js';
import type { FindSessionOwner } from './session-owner.js';

/** Told, with a daemon id as payload, when a message waits in that daemon's queue. */
const ROUTE_CHANNEL = 'agentd_route';
/** Looks for messages nobody announced. */
const SWEEP_MS = 2000;
/** While requests wait on other daemons: how often their owners are checked (a dead one's request is routed again soon after its lease ends). */
const OWNER_CHECK_MS = 250;

/**
 * What goes through a daemon's own queue: a request for a session it owns, a cancel, the
 * answer to a request it forwarded, or another daemon's reply to a permission question of its turn.
 */
type RouteMessage =
  | ({ kind: 'request'; requestId: string; from: string } & RoutedRequest)
  | { kind: 'cancel'; sessionId: string }
  | { kind: 'reply'; requestId: string; result?: unknown; error?: { code: number; message: string; data?: unknown } }
  | ({ kind: 'question_reply' } & PermissionReply);

interface Waiting {
  /** The daemon the request went to. */
  owner: string;
  /** Why it went there: it owned the session, or it serves the session's folder (nobody owned it). */
  role: ForwardTarget['role'];
  sessionId: string;
  /** A steer or follow-up (joining a running turn): the owner stores it before it answers, and it outlives the owner. */
  queued: boolean;
  /** The request's job in the owner's queue, once sent. */
  jobId?: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const DAEMON_QUEUE_PREFIX = 'agentd-daemon-';

/** The pg-boss queue of one daemon's messages: `agentd-daemon-` and its id. */
export function daemonQueue(daemonId: string): string {
  return `${DAEMON_QUEUE_PREFIX}${daemonId}`;
}

/**
 * Requests for a session another daemon owns reach it through that daemon's own pg-boss
 * queue, and its answer comes back through the sender's: a prompt's when its turn ends
 * there. A daemon takes its messages as soon as a NOTIFY names it (and every SWEEP_MS);
 * they are completed when taken, never retried: a request whose owner dies before answering
 * is failed by the sender, which sees the session's owner change (its lease ended) and says
 * to send it again. Routed requests take no queue slot; a prompt's turn takes a turn slot
 * on the owner like any turn.
 */
export class PgBossSessionRouting implements DaemonSessionRouting {
  private readonly waiting = new Map<string, Waiting>();
  private questionReplied: (reply: PermissionReply) => void = () => undefined;
  private sessions: SessionManager | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private ownerCheck: NodeJS.Timeout | undefined;
  private checkingOwners = false;
  private taking = false;
  private readonly fetcher = new RunAgainWhenAsked(() => this.fetchAll().catch((error: Error) => this.log(`cannot take forwarded requests: ${error.message}`)));

  constructor(
    readonly daemonId: string,
    private readonly connection: PgBossConnection,
    private readonly findOwner: FindSessionOwner,
    /** The ids of the daemons alive now, by the registry. */
    private readonly liveDaemonIds: () => Promise<string[]>,
    private readonly log: (line: string) => void,
  ) {}

  private get boss(): PgBoss {
    return this.connection.boss;
  }

  async start(sessions: SessionManager): Promise<void> {
    this.sessions = sessions;
    const queue = daemonQueue(this.daemonId);
    await this.connection.oneAtATime(() => this.boss.createQueue(queue, { name: queue, policy: 'standard', retryLimit: 0 }));
    await this.connection.listen(ROUTE_CHANNEL, (payload) => {
      if (payload === this.daemonId) this.take();
    });
    this.taking = true;
    this.sweep = setInterval(() => this.take(), SWEEP_MS);
    this.sweep.unref();
    this.ownerCheck = setInterval(() => {
      if (this.waiting.size === 0 || this.checkingOwners) return;
      this.checkingOwners = true;
      void this.failOrphans().finally(() => (this.checkingOwners = false));
    }, OWNER_CHECK_MS);
    this.ownerCheck.unref();
    this.take();
  }

  stopTaking(): void {
    this.taking = false;
    if (this.sweep) clearInterval(this.sweep);
    if (this.ownerCheck) clearInterval(this.ownerCheck);
  }

  /** Its queue goes with it (a daemon's id is new at each start); a request sent to it now fails at its sender. */
  async stop(): Promise<void> {
    this.stopTaking();
    await this.connection.removeQueue(daemonQueue(this.daemonId)).catch((error: Error) => this.log(`cannot remove this daemon's pg-boss queue: ${error.message}`));
    for (const [requestId, waiting] of this.waiting) {
      this.waiting.delete(requestId);
      waiting.reject(new RpcError(ErrorCodes.InternalError, `this daemon is stopping: the answer of daemon ${waiting.owner} for session ${waiting.sessionId} will not be waited for`));
    }
  }

  async daemonQueues(): Promise<string[]> {
    const queues = await this.boss.getQueues();
    return queues.filter((queue) => queue.name.startsWith(DAEMON_QUEUE_PREFIX)).map((queue) => queue.name.slice(DAEMON_QUEUE_PREFIX.length));
  }

  async removeQueueOf(daemonId: string): Promise<void> {
    await this.connection.removeQueue(daemonQueue(daemonId));
  }

  async ownerElsewhere(sessionId: string): Promise<string | undefined> {
    const owner = await this.findOwner(sessionId);
    return owner !== undefined && owner !== this.daemonId ? owner : undefined;
  }

  forward<M extends RoutedMethod>(target: ForwardTarget, method: M, params: ParamsOf<M>, signal: AbortSignal): Promise<ResultOf<M>> {
    const { daemonId: owner, role } = target;
    const requestId = randomUUID();
    // Every routed method's params name their session.
    const { sessionId } = params as { sessionId: string };
    const onAbort = (): void => void this.cancel(owner, sessionId).catch((error: Error) => this.log(`cannot cancel on daemon ${owner}: ${error.message}`));
    const answer = new Promise<ResultOf<M>>((resolve, reject) => {
      const queued = method === 'session/steer' || method === 'session/followUp' || (params as ParamsOf<'session/prompt'>)._meta?.agentd?.delivery !== undefined;
      this.waiting.set(requestId, { owner, role, sessionId, queued, resolve: resolve as (result: unknown) => void, reject });
      const request = { kind: 'request', requestId, from: this.daemonId, method, params } as RouteMessage;
      this.send(owner, request).then(
        (jobId) => {
          const waiting = this.waiting.get(requestId);
          if (waiting && jobId !== null) waiting.jobId = jobId;
        },
        (error: Error) => {
          this.waiting.delete(requestId);
          reject(error);
        },
      );
    });
    if (method === 'session/prompt') signal.addEventListener('abort', onAbort, { once: true });
    return answer.finally(() => signal.removeEventListener('abort', onAbort));
  }

  async cancel(owner: string, sessionId: string): Promise<void> {
    await this.send(owner, { kind: 'cancel', sessionId });
  }

  async replyToQuestion(to: string, reply: PermissionReply): Promise<void> {
    await this.send(to, { kind: 'question_reply', ...reply });
  }

  onQuestionReply(listener: (reply: PermissionReply) => void): void {
    this.questionReplied = listener;
  }

  private async send(to: string, message: RouteMessage): Promise<string | null> {
    const jobId = await this.boss.send(daemonQueue(to), message);
    await this.connection.notify(ROUTE_CHANNEL, to);
    return jobId;
  }

  /** Takes every message waiting in this daemon's queue; a call during a fetch makes it look again. */
  private take(): void {
    if (this.taking) this.fetcher.ask();
  }

  private async fetchAll(): Promise<void> {
    const queue = daemonQueue(this.daemonId);
    while (this.taking) {
      const jobs = await this.boss.fetch<RouteMessage>(queue, { batchSize: 16 });
      if (jobs.length === 0) return;
      await this.boss.complete(queue, jobs.map((job) => job.id));
      for (const job of jobs) this.receive(job.data);
    }
  }

  private receive(message: RouteMessage): void {
    if (message.kind === 'reply') {
      const waiting = this.waiting.get(message.requestId);
      if (!waiting) return;
      this.waiting.delete(message.requestId);
      if (message.error) waiting.reject(new RpcError(message.error.code, message.error.message, message.error.data));
      else waiting.resolve(message.result);
      return;
    }
    if (message.kind === 'cancel') {
      this.sessions?.get(message.sessionId)?.cancel();
      return;
    }
    if (message.kind === 'question_reply') {
      const { questionId, from, answer } = message;
      return this.questionReplied({ questionId, from, answer });
    }
    void this.answer(message);
  }

  /** Runs a request for a session this daemon owns and sends the answer back to the daemon that forwarded it. */
  private async answer(message: Extract<RouteMessage, { kind: 'request' }>): Promise<void> {
    const sessions = this.sessions;
    if (!sessions) return;
    let reply: RouteMessage;
    try {
      reply = { kind: 'reply', requestId: message.requestId, result: await runRoutedRequest(sessions, this.log, message) };
    } catch (failure) {
      const error = sessionErrorToRpc(message.method, failure);
      const wire = error instanceof RpcError ? error.toJSON() : { code: ErrorCodes.InternalError, message: (error as Error).message };
      reply = { kind: 'reply', requestId: message.requestId, error: wire };
    }
    await this.send(message.from, reply).catch((error: Error) => this.log(`cannot answer daemon ${message.from} about session ${message.params.sessionId}: ${error.message}`));
  }

  /**
   * A request whose owner lost the session (its lease ended: the daemon died) will not be
   * answered. One the owner never took is withdrawn from its queue and handed back to the
   * sender to route again (RequestNotTakenError): it runs where the session is now. One it
   * took may have stored its prompt before the owner died, so it fails, saying what to do.
   * A request sent to a daemon serving the session's folder is orphaned only when that
   * daemon is gone, or when another daemon took the session before it took the request.
   */
  private async failOrphans(): Promise<void> {
    // The registry is read once a pass, however many requests wait, and only if an owner changed.
    let alive: Promise<Set<string>> | undefined;
    const isAlive = async (daemonId: string): Promise<boolean> => (await (alive ??= this.liveDaemonIds().then((ids) => new Set(ids)))).has(daemonId);
    for (const [requestId, waiting] of this.waiting) {
      let orphaned: 'gone' | 'taken_elsewhere' | undefined;
      try {
        orphaned = await this.orphaned(waiting, isAlive);
      } catch {
        continue;
      }
      if (orphaned === undefined || !this.waiting.has(requestId)) continue;
      if (waiting.jobId === undefined) continue;
      let untaken = false;
      try {
        untaken = await this.withdraw(waiting.owner, waiting.jobId);
      } catch (error) {
        this.log(`cannot look at the request for session ${waiting.sessionId} left with daemon ${waiting.owner}: ${(error as Error).message}`);
        continue;
      }
      if (!this.waiting.has(requestId)) continue;
      // A live daemon that took the request answers it (a serving one once the other daemon's turn ends).
      if (!untaken && orphaned === 'taken_elsewhere') continue;
      this.waiting.delete(requestId);
      if (untaken) {
        waiting.reject(new RequestNotTakenError(waiting.owner, waiting.sessionId));
        continue;
      }
      // A steer or follow-up it stored runs elsewhere as its own turn (see PendingPromptRescue): sending it again would run it twice.
      const advice = waiting.queued
        ? 'a steer or follow-up it had stored is kept and runs as its own turn on another daemon; look at the session (session/load) and send it again only if it is not there'
        : 'what it stored stays stored and an interrupted turn is marked so: send the request again';
      waiting.reject(
        new RpcError(
          ErrorCodes.InternalError,
          `daemon ${waiting.owner}, which ${waiting.role === 'owner' ? 'owned' : 'took the request for'} session ${waiting.sessionId}, ` +
            `lost it before it answered (it stopped, or its lease ended); ${advice}`,
          { kind: 'owner_lost', owner: waiting.owner },
        ),
      );
    }
  }

  /**
   * Whether a waiting request's daemon can no longer answer it: gone (no heartbeat for its
   * lease), or no longer the session's way in — an owner that let the session go (its turn
   * ended and it released the lease, or another daemon took it), a serving daemon beaten to
   * the session by another. A live daemon that took the request answers it in every case,
   * so only one that has not taken it yet is asked for it back.
   */
  private async orphaned(waiting: Waiting, isAlive: (daemonId: string) => Promise<boolean>): Promise<'gone' | 'taken_elsewhere' | undefined> {
    const owner = await this.findOwner(waiting.sessionId);
    if (owner === waiting.owner) return undefined;
    if (!(await isAlive(waiting.owner))) return 'gone';
    // A serving daemon is not an owner yet: its lease comes when it takes the request, so no lease is no news.
    if (waiting.role === 'serving' && owner === undefined) return undefined;
    return 'taken_elsewhere';
  }

  /**
   * Removes a request from a gone owner's queue if it is still waiting there untaken; true
   * when it was. A daemon that lost the lease but lives on could take it meanwhile, but its
   * writes to the session are fenced: it cannot store the prompt.
   */
  private async withdraw(owner: string, jobId: string): Promise<boolean> {
    const queue = daemonQueue(owner);
    const job = await this.boss.getJobById(queue, jobId);
    if (job === null || job.state !== 'created') return false;
    await this.boss.deleteJob(queue, jobId);
    return true;
  }
}
