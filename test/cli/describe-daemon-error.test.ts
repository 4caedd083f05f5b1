import { describe, expect, it } from 'vitest';
import { inCliTerms } from '../../src/cli/describe-daemon-error.js';
import { ScheduleNotFoundError } from '../../src/scheduler/schedule-errors.js';
import { SessionNotFoundError } from '../../src/session/session-errors.js';

describe('inCliTerms', () => {
  it('says how to list sessions and schedules with the CLI, not with a protocol method', () => {
    const session = inCliTerms(new SessionNotFoundError('s-1'));
    expect(session).toBe('session s-1 not found; list them with agentd sessions');
    const schedule = inCliTerms(new ScheduleNotFoundError('nightly'));
    expect(schedule).toBe('schedule "nightly" not found; list them with agentd schedules list');
    expect(`${session} ${schedule}`).not.toMatch(/session\/list|schedules\/list/);
  });

  it('names the flag that carried a refused value, with the nearest agent name', () => {
    const message = inCliTerms({ message: 'invalid params for session/set_mode: modeId: unknown mode "bulid"; available: build, plan', data: { issues: ['modeId: unknown mode "bulid"; available: build, plan'] } });
    expect(message).toBe('--agent: unknown agent "bulid". Did you mean "build"? The agents are build, plan');
  });
});
