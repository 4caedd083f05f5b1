import type { HandlerTable } from './handler-table.js';
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
};
