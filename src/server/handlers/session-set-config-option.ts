import { ModelNotConfiguredError } from '../../project/model-not-configured-error.js';
import { UnknownChoiceError } from '../../session/session-errors.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../wire/rpc-error.js';
import { sessionConfigOptions } from '../acp/session-choices.js';

const QUEUE_MODES = ['all', 'oneAtATime'] as const;

/** Sets the mode (as session/set_mode does), the model or a queue's delivery mode; answers with every option's new state. */
export const sessionSetConfigOption: RequestHandler<'session/set_config_option'> = async (params, { daemon }) => {
  const session = await daemon.sessions.open(params.sessionId);
  const value = (params as { value?: unknown }).value;
  const invalid = (detail: string): RpcError => RpcError.invalidParams('session/set_config_option', [detail]);
  if (typeof value !== 'string') throw invalid(`value: expected a string for ${params.configId}`);
  /** Runs a setter; its error for a value the session does not offer is the caller's invalid `value`. */
  const set = async (apply: (value: string) => Promise<void>, refusal: new (...args: never[]) => Error): Promise<void> => {
    try {
      await apply(value);
    } catch (error) {
      if (error instanceof refusal) throw invalid(`value: ${error.message}`);
      throw error;
    }
  };
  switch (params.configId) {
    case 'mode':
      await set((mode) => session.setMode(mode), UnknownChoiceError);
      break;
    case 'model':
      await set((model) => session.setModel(model), ModelNotConfiguredError);
      break;
    case 'steeringMode':
    case 'followUpMode': {
      const mode = QUEUE_MODES.find((m) => m === value);
      if (!mode) throw invalid(`value: expected one of ${QUEUE_MODES.join(', ')} for ${params.configId}`);
      await session.setDeliveryMode(params.configId === 'steeringMode' ? 'steering' : 'followUp', mode);
      break;
    }
    default:
      throw invalid(`configId: unknown option "${params.configId}"; options are mode, model, steeringMode, followUpMode`);
  }
  return { configOptions: sessionConfigOptions(session) };
};
