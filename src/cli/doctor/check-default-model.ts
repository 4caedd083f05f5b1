import type { AgentdConfig } from '../../config/config-schema.js';
import { pickDefaultModel } from '../../project/pick-default-model.js';
import { okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/** Which model a new session uses when it names none (pickDefaultModel, as session/new does). */
export function checkDefaultModel(config: AgentdConfig, env: NodeJS.ProcessEnv): DoctorCheck {
  const model = pickDefaultModel(config, env);
  if (model !== undefined) return okCheck('model', 'default model', model);
  return warnCheck(
    'model',
    'default model',
    'no default model: every session and `agentd run` must name one (--model, session/set_config_option)',
    'set "model" in config.json, e.g. { "model": "anthropic/claude-sonnet-4-5" }',
  );
}
