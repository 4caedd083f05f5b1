import { describe, expect, it } from 'vitest';
import { SessionStateMachine, stateForClients, type SessionState, type SessionTransition } from '../../src/session/session-state.js';

const STATES: SessionState[] = ['idle', 'running', 'compacting', 'aborting'];

/** Every legal move: from, transition, to. */
const LEGAL: Array<[SessionState, SessionTransition, SessionState]> = [
  ['idle', 'turnStarted', 'running'],
  ['idle', 'compactionStarted', 'compacting'],
  ['running', 'abortRequested', 'aborting'],
  ['running', 'turnEnded', 'idle'],
  ['aborting', 'turnEnded', 'idle'],
  ['compacting', 'compactionEnded', 'idle'],
];

const TRANSITIONS: SessionTransition[] = ['turnStarted', 'compactionStarted', 'abortRequested', 'turnEnded', 'compactionEnded'];

/** The shortest way from idle to each state. */
const PATH: Record<SessionState, SessionTransition[]> = {
  idle: [],
  running: ['turnStarted'],
  compacting: ['compactionStarted'],
  aborting: ['turnStarted', 'abortRequested'],
};

function machineIn(state: SessionState): SessionStateMachine {
  const machine = new SessionStateMachine();
  for (const transition of PATH[state]) machine[transition]();
  expect(machine.state).toBe(state);
  return machine;
}

describe('session state machine', () => {
  it('starts idle', () => {
    expect(new SessionStateMachine().state).toBe('idle');
  });

  it.each(LEGAL)('%s --%s--> %s', (from, transition, to) => {
    const machine = machineIn(from);
    machine[transition]();
    expect(machine.state).toBe(to);
  });

  const illegal = STATES.flatMap((from) =>
    TRANSITIONS.filter((transition) => !LEGAL.some(([f, t]) => f === from && t === transition)).map((transition) => [from, transition] as const),
  );

  it('refuses every other move (14 of them)', () => {
    expect(illegal).toHaveLength(STATES.length * TRANSITIONS.length - LEGAL.length);
  });

  it.each(illegal)('refuses %s in %s, naming both, and stays put', (from, transition) => {
    const machine = machineIn(from);
    expect(() => machine[transition]()).toThrow(new Error(`session state: ${transition} is not allowed while ${from}`));
    expect(machine.state).toBe(from);
  });

  it('tells clients a busy session is running', () => {
    expect(STATES.map(stateForClients)).toEqual(['idle', 'running', 'running', 'running']);
  });
});
