import type { PermissionAnswer, PermissionQuestionForClient } from '../../project/permission-asker.js';

/** The `permission_asked` update: a question of a turn, put to the clients following its session on every daemon. */
export interface PermissionAsked {
  questionId: string;
  question: PermissionQuestionForClient;
}

/** The `permission_settled` update: the question's answer, whoever gave it first; the other daemons withdraw it. */
export interface PermissionSettled {
  questionId: string;
  outcome: PermissionAnswer;
}

/**
 * What a follower's daemon tells the question's daemon through that daemon's pg-boss
 * queue: that it is asking its clients (`asking`), then what they answered (`no_client`
 * when none could).
 */
export interface PermissionReply {
  questionId: string;
  /** The daemon whose clients were asked. */
  from: string;
  answer: PermissionAnswer | 'asking';
}
