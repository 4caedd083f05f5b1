import type { HandlerTable } from './handler-table.js';

/**
 * Every method this daemon serves besides `initialize` (see dispatch), by its protocol
 * name. Each entry loads its handler's module on first use.
 */
export const handlers: HandlerTable = {
  'session/new': async () => (await import('./handlers/session-new.js')).sessionNew,
  'session/load': async () => (await import('./handlers/session-load.js')).sessionLoad,
  'session/resume': async () => (await import('./handlers/session-resume.js')).sessionResume,
  'session/list': async () => (await import('./handlers/session-list.js')).sessionList,
  'session/close': async () => (await import('./handlers/session-close.js')).sessionClose,
  'session/delete': async () => (await import('./handlers/session-delete.js')).sessionDelete,
  'session/info': async () => (await import('./handlers/session-info.js')).sessionInfo,
  'daemon/sessions': async () => (await import('./handlers/daemon-sessions.js')).daemonSessions,
  'daemon/costs': async () => (await import('./handlers/daemon-costs.js')).daemonCosts,
  'session/export': async () => (await import('./handlers/session-export.js')).sessionExport,
  'daemon/health': async () => (await import('./handlers/daemon-health.js')).daemonHealth,
  'daemon/cluster': async () => (await import('./handlers/daemon-cluster.js')).daemonCluster,
  'session/prompt': async () => (await import('./handlers/session-prompt.js')).sessionPrompt,
  'session/cancel': async () => (await import('./handlers/session-cancel.js')).sessionCancel,
  'session/abort': async () => (await import('./handlers/session-abort.js')).sessionAbort,
  'session/steer': async () => (await import('./handlers/session-steer.js')).sessionSteer,
  'session/followUp': async () => (await import('./handlers/session-follow-up.js')).sessionFollowUp,
  'session/compact': async () => (await import('./handlers/session-compact.js')).sessionCompact,
  'session/set_mode': async () => (await import('./handlers/session-set-mode.js')).sessionSetMode,
  'session/set_config_option': async () => (await import('./handlers/session-set-config-option.js')).sessionSetConfigOption,
  'tools/register': async () => (await import('./handlers/tools-register.js')).toolsRegister,
  'tools/unregister': async () => (await import('./handlers/tools-unregister.js')).toolsUnregister,
  'tools/list': async () => (await import('./handlers/tools-list.js')).toolsList,
  'hooks/register': async () => (await import('./handlers/hooks-register.js')).hooksRegister,
  'schedules/add': async () => (await import('./handlers/schedules.js')).schedulesAdd,
  'schedules/list': async () => (await import('./handlers/schedules.js')).schedulesList,
  'schedules/update': async () => (await import('./handlers/schedules.js')).schedulesUpdate,
  'schedules/remove': async () => (await import('./handlers/schedules.js')).schedulesRemove,
  'schedules/run': async () => (await import('./handlers/schedules.js')).schedulesRun,
  'schedules/history': async () => (await import('./handlers/schedules.js')).schedulesHistory,
};
