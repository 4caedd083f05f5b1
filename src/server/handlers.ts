import type { HandlerTable } from './handler-table.js';
import { hooksRegister } from './handlers/hooks-register.js';
import { initialize } from './handlers/initialize.js';
import { sessionAbort } from './handlers/session-abort.js';
import { sessionCancel } from './handlers/session-cancel.js';
import { sessionClose } from './handlers/session-close.js';
import { sessionDelete } from './handlers/session-delete.js';
import { sessionList } from './handlers/session-list.js';
import { sessionLoad } from './handlers/session-load.js';
import { sessionNew } from './handlers/session-new.js';
import { sessionPrompt } from './handlers/session-prompt.js';
import { sessionResume } from './handlers/session-resume.js';
import { sessionCompact } from './handlers/session-compact.js';
import { sessionFollowUp } from './handlers/session-follow-up.js';
import { sessionSetConfigOption } from './handlers/session-set-config-option.js';
import { sessionSetMode } from './handlers/session-set-mode.js';
import { sessionSteer } from './handlers/session-steer.js';
import { toolsList } from './handlers/tools-list.js';
import { toolsRegister } from './handlers/tools-register.js';
import { toolsUnregister } from './handlers/tools-unregister.js';

/** Every method this daemon serves, by its protocol name. */
export const handlers: HandlerTable = {
  initialize,
  'session/new': sessionNew,
  'session/load': sessionLoad,
  'session/resume': sessionResume,
  'session/list': sessionList,
  'session/close': sessionClose,
  'session/delete': sessionDelete,
  'session/prompt': sessionPrompt,
  'session/cancel': sessionCancel,
  'session/abort': sessionAbort,
  'session/steer': sessionSteer,
  'session/followUp': sessionFollowUp,
  'session/compact': sessionCompact,
  'session/set_mode': sessionSetMode,
  'session/set_config_option': sessionSetConfigOption,
  'tools/register': toolsRegister,
  'tools/unregister': toolsUnregister,
  'tools/list': toolsList,
  'hooks/register': hooksRegister,
};
