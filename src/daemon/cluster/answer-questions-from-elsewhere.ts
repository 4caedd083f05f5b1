import { SettledElsewhere, type PermissionAnswer, type PermissionQuestionForClient } from '../../project/permission-asker.js';
import type { SessionUpdateRow } from '../../store/postgres-session-updates.js';
import type { PermissionAsked, PermissionReply, PermissionSettled } from './permission-question-messages.js';

/** While questions of other daemons are open here: how often their daemons are checked to be alive. */
const OWNER_CHECK_MS = 1_000;

/** What answering other daemons' questions needs. */
export interface AnswerElsewhereParts {
  daemonId: string;
  /** Asks the clients here following `root` (as its own turn's question would be); resolves `cancelled` once `signal` aborts. */
  askHere(root: string, question: PermissionQuestionForClient, signal: AbortSignal): Promise<PermissionAnswer>;
  /** Sends a reply to the question's daemon (its pg-boss queue). */
  reply(to: string, reply: PermissionReply): Promise<void>;
  /** The other daemons of the cluster alive now. */
  otherLiveDaemons(): Promise<string[]>;
  log(line: string): void;
}

interface Asking {
  /** The daemon whose turn asks. */
  owner: string;
  sessionId: string;
  turnId: string | null;
  withdraw: AbortController;
}

/**
 * The follower's half of AskFollowersElsewhere: a question of a turn on another daemon,
 * relayed here in its place among the turn's updates, is put to the clients following the
 * session here, and their answer goes back to that daemon. The question is withdrawn here
 * when it was settled (the `permission_settled` update: the clients are told the answer),
 * when its turn ended, or when its daemon died (as a cancelled turn withdraws it).
 */
export class AnswerQuestionsFromElsewhere {
  private readonly asking = new Map<string, Asking>();
  private ownerCheck: NodeJS.Timeout | undefined;

  constructor(private readonly parts: AnswerElsewhereParts) {}

  /** A question update, or a turn's end, of `sessionId` from another daemon. */
  received(sessionId: string, row: SessionUpdateRow): void {
    if (row.kind === 'permission_asked') return this.ask(sessionId, row);
    if (row.kind === 'permission_settled') {
      const { questionId, outcome } = JSON.parse(row.event) as PermissionSettled;
      this.asking.get(questionId)?.withdraw.abort(new SettledElsewhere(outcome));
      return;
    }
    if (row.kind !== 'turn_end') return;
    for (const asking of this.asking.values()) if (asking.sessionId === sessionId && asking.turnId === row.turnId) asking.withdraw.abort();
  }

  /** Withdraws every question still open here (the daemon stops). */
  close(): void {
    for (const asking of this.asking.values()) asking.withdraw.abort();
    this.stopChecking();
  }

  private ask(sessionId: string, row: SessionUpdateRow): void {
    const { questionId, question } = JSON.parse(row.event) as PermissionAsked;
    const asking: Asking = { owner: row.origin, sessionId, turnId: row.turnId, withdraw: new AbortController() };
    this.asking.set(questionId, asking);
    this.checkOwners();
    const reply = (answer: PermissionReply['answer']): Promise<void> =>
      this.parts.reply(asking.owner, { questionId, from: this.parts.daemonId, answer }).catch((error: Error) => {
        this.parts.log(`permission question: cannot answer daemon ${asking.owner} for session ${sessionId}: ${error.message}`);
      });
    // In this order: the owner waits for an answer from a daemon that said it asks.
    const saidAsking = reply('asking');
    const answered = this.parts.askHere(sessionId, question, asking.withdraw.signal).catch((error: Error): PermissionAnswer => {
      this.parts.log(`permission question: asking the clients here failed: ${error.message}`);
      return 'no_client';
    });
    void answered
      .then(async (answer) => {
        await saidAsking;
        // Withdrawn (answered elsewhere, its turn over, its daemon gone): there is nothing to tell.
        if (!asking.withdraw.signal.aborted) await reply(answer);
      })
      .finally(() => {
        this.asking.delete(questionId);
        if (this.asking.size === 0) this.stopChecking();
      });
  }

  private checkOwners(): void {
    this.ownerCheck ??= setInterval(() => void this.withdrawOrphans(), OWNER_CHECK_MS);
    this.ownerCheck.unref();
  }

  private stopChecking(): void {
    if (this.ownerCheck) clearInterval(this.ownerCheck);
    this.ownerCheck = undefined;
  }

  /** A question whose daemon died gets no settling: it is withdrawn as a cancelled turn withdraws it. */
  private async withdrawOrphans(): Promise<void> {
    let alive: Set<string>;
    try {
      alive = new Set(await this.parts.otherLiveDaemons());
    } catch {
      return;
    }
    for (const asking of this.asking.values()) if (!alive.has(asking.owner)) asking.withdraw.abort();
  }
}
