import { agentModeName, describeAgentAccess } from '../../config/describe-agent-access.js';
import type { SessionConfigOption, SessionModeState } from '../../../protocol/index.js';
import type { Session } from '../../session/session.js';

/** ACP `modes` for a session: its agents with their real access, and the current one. */
export function sessionModes(session: Session): SessionModeState {
  const agents = session.project.agents(session.record);
  return {
    currentModeId: session.project.agent(session.record, agents).name,
    availableModes: agents.map((a) => ({
      id: a.name,
      name: agentModeName(a),
      description: `${describeAgentAccess(a)}. ${a.description}${a.source === 'builtin' || a.source === 'config' ? '' : ` (from ${a.source})`}`,
    })),
  };
}

/**
 * ACP `configOptions`: the mode (the same agents as `modes`: a client that reads
 * configOptions ignores `modes`), the model (from the session's project settings), and
 * how the steering and follow-up queues deliver.
 */
export function sessionConfigOptions(session: Session): SessionConfigOption[] {
  const modes = sessionModes(session);
  const current = session.record.model ?? session.project.defaultModel ?? '';
  const choices = session.project.modelChoices();
  if (current && !choices.some((c) => c.value === current)) choices.unshift({ value: current, name: current });
  const queueChoices = [
    { value: 'all', name: 'All at once' },
    { value: 'oneAtATime', name: 'One at a time' },
  ];
  return [
    {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: modes.currentModeId,
      options: modes.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description })),
    },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: current, options: choices },
    { id: 'steeringMode', name: 'Steering delivery', type: 'select', currentValue: session.deliveryMode('steering'), options: queueChoices },
    { id: 'followUpMode', name: 'Follow-up delivery', type: 'select', currentValue: session.deliveryMode('followUp'), options: queueChoices },
  ];
}
