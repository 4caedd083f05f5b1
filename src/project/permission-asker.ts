import type { ToolKind } from '../../protocol/index.js';
import type { FileDiff } from '../tools/tool.js';

/**
 * A user's answer to a permission question, as ACP option kinds, or why there was none:
 * no client could be asked, or the only answers named options that were not offered
 * (`invalidAnswer` says which, for the refusal the model and the user read).
 */
export type PermissionAnswer = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always' | 'cancelled' | 'no_client' | { invalidAnswer: string };

/** The question put to a client (maps to ACP `session/request_permission`). */
export interface PermissionQuestionForClient {
  sessionId: string;
  toolCallId: string;
  title: string;
  kind: ToolKind;
  rawInput: Record<string, unknown>;
  /** Why the question is asked, when it is not the plain tool call (e.g. a path outside the workspace). */
  reason?: string;
  /**
   * Labels of the "always" options, naming exactly what would be remembered
   * (`Always allow this exact command in this project: npm test`). `allow` is absent
   * when an "always allow" would not apply (a protected path asks every time).
   */
  always?: { allow?: string; reject: string };
  /** The change a file tool would make, for the client to show before the answer. */
  diff?: FileDiff[];
}

/**
 * The reason a question's signal aborts with when the question was settled elsewhere (a
 * client of another daemon answered first): the clients asked here are withdrawn, told that answer.
 */
export class SettledElsewhere extends Error {
  constructor(readonly answer: PermissionAnswer) {
    super('the permission question was answered elsewhere');
    this.name = 'SettledElsewhere';
  }
}

/** Asks a human through some attached client; `no_client` when none can answer. */
export type PermissionAsker = (question: PermissionQuestionForClient, signal: AbortSignal) => Promise<PermissionAnswer>;

/** The asker of a daemon with no interactive client (headless runs). */
export const noClientAsker: PermissionAsker = () => Promise.resolve('no_client');
