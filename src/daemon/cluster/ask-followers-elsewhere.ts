import { randomUUID } from 'node:crypto';
import { SettledElsewhere, type PermissionAnswer, type PermissionAsker, type PermissionQuestionForClient } from '../../project/permission-asker.js';
import type { PermissionAsked, PermissionReply, PermissionSettled } from './permission-question-messages.js';

/**
 * How long a question no client here can answer waits for another daemon to say it is
 * asking its clients. That word comes through the table, a NOTIFY and a pg-boss job (tens of
 * milliseconds); a daemon that follows the session and says nothing in this time has no client
 * to ask, or is too slow to be waited for.
 */
const ASKING_WINDOW_MS = 2_000;
/** While only other daemons' clients are asked: how often those daemons are checked to be alive. */
const ALIVE_CHECK_MS = 1_000;

/** What asking beyond this daemon needs. */
export interface AskElsewhereParts {
  /** Puts a question update (or its settling) after what the session's running turn has shown; false when no turn of it runs here. */
  publish(sessionId: string, kind: 'permission_asked' | 'permission_settled', payload: PermissionAsked | PermissionSettled): boolean;
  /** The other daemons of the cluster alive now. */
  otherLiveDaemons(): Promise<string[]>;
  log(line: string): void;
}

/** A question of a turn here, open until its first answer. */
interface OpenQuestion {
  /** Daemons asking their clients now. */
  asking: Set<string>;
  /** Daemons that answered (a late `asking` from one of them changes nothing). */
  answered: Set<string>;
  /** No client here could answer. */
  noneHere: boolean;
  /** The other daemons had their time to say they ask. */
  windowOver: boolean;
  /** The first answer naming an option not offered, given when no valid one comes. */
  invalid: PermissionAnswer | undefined;
  timers: NodeJS.Timeout[];
  settle(answer: PermissionAnswer): void;
}

/**
 * Puts a permission question of a turn running here to the clients following its session
 * on other daemons too: it goes out as an update after the events the turn showed before
 * it, each follower's daemon asks its clients and sends their answer back through this
 * daemon's pg-boss queue (replied). The first valid answer, here or elsewhere, wins; the
 * clients here that did not answer are withdrawn and told it, and so are those elsewhere
 * (the `permission_settled` update). Nobody anywhere to ask gives `no_client`, as on one daemon.
 */
export class AskFollowersElsewhere {
  private readonly open = new Map<string, OpenQuestion>();

  constructor(private readonly parts: AskElsewhereParts) {}

  /** Asks the clients here (`askHere`) and those following the root session elsewhere; resolves with the first answer. */
  async ask(root: string, question: PermissionQuestionForClient, signal: AbortSignal, askHere: PermissionAsker): Promise<PermissionAnswer> {
    if (signal.aborted) return 'cancelled';
    const questionId = randomUUID();
    if (!this.parts.publish(root, 'permission_asked', { questionId, question })) return askHere(question, signal);
    const here = new AbortController();
    let settle!: (answer: PermissionAnswer) => void;
    const settled = new Promise<PermissionAnswer>((resolve) => (settle = resolve));
    const open: OpenQuestion = { asking: new Set(), answered: new Set(), noneHere: false, windowOver: false, invalid: undefined, timers: [], settle };
    this.open.set(questionId, open);
    // The turn stopped: the question is withdrawn everywhere as cancelled.
    const onAbort = (): void => {
      here.abort(signal.reason);
      settle('cancelled');
    };
    signal.addEventListener('abort', onAbort, { once: true });
    askHere(question, here.signal).then(
      (answer) => {
        if (typeof answer === 'string' && answer !== 'no_client') return settle(answer);
        if (typeof answer === 'object') open.invalid ??= answer;
        open.noneHere = true;
        void this.waitForOthers(questionId, open);
      },
      (error: Error) => {
        this.parts.log(`permission question: asking the clients here failed: ${error.message}`);
        open.noneHere = true;
        void this.waitForOthers(questionId, open);
      },
    );
    try {
      const answer = await settled;
      // Whoever has not answered drops the question: the clients here told the answer, those elsewhere by the update.
      here.abort(new SettledElsewhere(answer));
      this.parts.publish(root, 'permission_settled', { questionId, outcome: answer });
      return answer;
    } finally {
      this.open.delete(questionId);
      for (const timer of open.timers) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** A follower's daemon says it asks its clients, or what they answered. */
  replied(reply: PermissionReply): void {
    const open = this.open.get(reply.questionId);
    if (!open) return;
    if (!isReplyAnswer(reply.answer)) {
      this.parts.log(`permission question: daemon ${reply.from} replied ${JSON.stringify(reply.answer)}, which is no answer; it counts as no client there`);
      reply = { ...reply, answer: 'no_client' };
    }
    if (reply.answer === 'asking') {
      if (!open.answered.has(reply.from)) open.asking.add(reply.from);
      return;
    }
    open.answered.add(reply.from);
    open.asking.delete(reply.from);
    if (typeof reply.answer === 'string' && reply.answer !== 'no_client') return open.settle(reply.answer);
    if (typeof reply.answer === 'object') open.invalid ??= reply.answer;
    this.settleIfNobody(open);
  }

  /** No client here: the other daemons get ASKING_WINDOW_MS to say they ask theirs; one that dies meanwhile stops counting. */
  private async waitForOthers(questionId: string, open: OpenQuestion): Promise<void> {
    const others = await this.parts.otherLiveDaemons().catch(() => []);
    if (this.open.get(questionId) !== open) return;
    if (others.length === 0) {
      open.windowOver = true;
      return this.settleIfNobody(open);
    }
    open.timers.push(
      setTimeout(() => {
        open.windowOver = true;
        this.settleIfNobody(open);
      }, ASKING_WINDOW_MS),
      setInterval(() => void this.forgetTheDead(questionId, open), ALIVE_CHECK_MS),
    );
  }

  private async forgetTheDead(questionId: string, open: OpenQuestion): Promise<void> {
    if (open.asking.size === 0) return;
    const alive = new Set(await this.parts.otherLiveDaemons().catch(() => [...open.asking]));
    if (this.open.get(questionId) !== open) return;
    for (const daemon of open.asking) if (!alive.has(daemon)) open.asking.delete(daemon);
    this.settleIfNobody(open);
  }

  private settleIfNobody(open: OpenQuestion): void {
    if (open.noneHere && open.windowOver && open.asking.size === 0) open.settle(open.invalid ?? 'no_client');
  }
}

const ANSWERS: ReadonlySet<unknown> = new Set(['asking', 'allow_once', 'allow_always', 'reject_once', 'reject_always', 'cancelled', 'no_client']);

/** Whether another daemon's reply is one this version sends (the queue's jobs are JSON anyone with the database could write). */
function isReplyAnswer(answer: unknown): answer is PermissionReply['answer'] {
  if (ANSWERS.has(answer)) return true;
  return typeof answer === 'object' && answer !== null && typeof (answer as { invalidAnswer?: unknown }).invalidAnswer === 'string';
}
