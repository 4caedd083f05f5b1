import type { Session } from '../session/session.js';
import type { DaemonContext } from './daemon-context.js';

/** ACP `modes` for a session: its agents, and the current one. */
export function sessionModes(session: Session): { currentModeId: string; availableModes: Array<{ id: string; name: string; description: string }> } {
  const agents = session.services.agents(session.record);
  return {
    currentModeId: session.services.agent(session.record, agents).name,
    availableModes: agents.map((a) => ({ id: a.name, name: a.name, description: a.description })),
  };
}

/** ACP `configOptions`: the model, and how the steering and follow-up queues deliver. */
export function sessionConfigOptions(session: Session, daemon: DaemonContext): Array<Record<string, unknown>> {
  const current = session.record.model ?? daemon.models.defaultModel() ?? '';
  const choices = daemon.models.choices();
  if (current && !choices.some((c) => c.value === current)) choices.unshift({ value: current, name: current });
  const queueChoices = [
    { value: 'all', name: 'All at once' },
    { value: 'oneAtATime', name: 'One at a time' },
  ];
  return [
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: current, options: choices },
    { id: 'steeringMode', name: 'Steering delivery', type: 'select', currentValue: session.queues.modes.steering, options: queueChoices },
    { id: 'followUpMode', name: 'Follow-up delivery', type: 'select', currentValue: session.queues.modes.followUp, options: queueChoices },
  ];
}
