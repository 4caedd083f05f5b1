/**
 * What a session is doing: `idle`; `running` a turn; `compacting` its conversation
 * (session/compact, outside a turn); `aborting` a turn that was asked to stop and has not
 * stopped yet (a prompt sent now waits for it instead of being refused).
 */
export type SessionState = 'idle' | 'running' | 'compacting' | 'aborting';

/** The named moves between states; each is legal from the states listed in TRANSITIONS only. */
export type SessionTransition = 'turnStarted' | 'compactionStarted' | 'abortRequested' | 'turnEnded' | 'compactionEnded';

/** For each transition, the state it leads to from each state it may start in. */
const TRANSITIONS: Record<SessionTransition, Partial<Record<SessionState, SessionState>>> = {
  turnStarted: { idle: 'running' },
  compactionStarted: { idle: 'compacting' },
  // A cancelled compaction just ends (compactionEnded): nothing waits for it to stop.
  abortRequested: { running: 'aborting' },
  turnEnded: { running: 'idle', aborting: 'idle' },
  compactionEnded: { compacting: 'idle' },
};

/**
 * One session's state. An illegal transition is a bug in the session, never something a
 * client did: it throws an Error naming the state and the transition.
 */
export class SessionStateMachine {
  private current: SessionState = 'idle';

  /** `moved` is told each new state, after the move. */
  constructor(private readonly moved: (state: SessionState) => void = () => undefined) {}

  get state(): SessionState {
    return this.current;
  }

  turnStarted(): void {
    this.move('turnStarted');
  }

  compactionStarted(): void {
    this.move('compactionStarted');
  }

  abortRequested(): void {
    this.move('abortRequested');
  }

  turnEnded(): void {
    this.move('turnEnded');
  }

  compactionEnded(): void {
    this.move('compactionEnded');
  }

  private move(transition: SessionTransition): void {
    const next = TRANSITIONS[transition][this.current];
    if (next === undefined) throw new Error(`session state: ${transition} is not allowed while ${this.current}`);
    this.current = next;
    this.moved(next);
  }
}

/** What clients are told (`_meta.agentd.state`): a session busy in any way is running. */
export function stateForClients(state: SessionState): 'idle' | 'running' {
  return state === 'idle' ? 'idle' : 'running';
}
