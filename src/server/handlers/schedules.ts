import type { MethodName } from '../../../protocol/index.js';
import type { RequestHandler } from '../handler-table.js';
import { scheduleErrorToRpc } from '../schedule-error-to-rpc.js';
import { requireServedFolder } from './require-served-folder.js';

/** Runs a scheduler call, answering its errors as JSON-RPC errors of `method`. */
async function answer<T>(method: MethodName, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw scheduleErrorToRpc(method, error);
  }
}

/**
 * Adds a schedule; cron, time zone and cwd are checked here (InvalidParams names the field).
 * Its folder must be one this daemon serves (`cluster.roots`): the daemon it is added on
 * starts its timer, the others when they next start, so a folder served only elsewhere is
 * refused, naming the daemons to add it on.
 */
export const schedulesAdd: RequestHandler<'schedules/add'> = (params, { daemon }) =>
  answer('schedules/add', async () => {
    await requireServedFolder('schedules/add', daemon, params.cwd);
    return { schedule: await daemon.scheduler.add(params) };
  });

export const schedulesList: RequestHandler<'schedules/list'> = (_params, { daemon }) =>
  answer('schedules/list', () => ({ schedules: daemon.scheduler.list() }));

/** Changes an added schedule; a config.json one is refused with how to change it, a folder this daemon does not serve as on add. */
export const schedulesUpdate: RequestHandler<'schedules/update'> = (params, { daemon }) =>
  answer('schedules/update', async () => {
    if (params.cwd !== undefined) await requireServedFolder('schedules/update', daemon, params.cwd);
    return { schedule: await daemon.scheduler.update(params) };
  });

export const schedulesRemove: RequestHandler<'schedules/remove'> = (params, { daemon }) =>
  answer('schedules/remove', async () => {
    await daemon.scheduler.remove(params.id);
    return {};
  });

/** Runs now, on a daemon that serves the schedule's folder; answers once the run has started (or was queued, skipped, or could not start). */
export const schedulesRun: RequestHandler<'schedules/run'> = (params, { daemon }) =>
  answer('schedules/run', async () => {
    await requireServedFolder('schedules/run', daemon, daemon.scheduler.get(params.id).cwd);
    return daemon.scheduler.run(params.id);
  });

export const schedulesHistory: RequestHandler<'schedules/history'> = (params, { daemon }) =>
  answer('schedules/history', () =>
    daemon.scheduler.history(params.id, {
      ...(params.cursor ? { cursor: params.cursor } : {}),
      ...(params.limit !== undefined ? { limit: params.limit } : {}),
    }),
  );
