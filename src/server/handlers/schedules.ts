import type { MethodName } from '../../../protocol/index.js';
import type { RequestHandler } from '../handler-table.js';
import { scheduleErrorToRpc } from '../schedule-error-to-rpc.js';

/** Runs a scheduler call, answering its errors as JSON-RPC errors of `method`. */
async function answer<T>(method: MethodName, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw scheduleErrorToRpc(method, error);
  }
}

/** Adds a schedule; cron, time zone and cwd are checked here (InvalidParams names the field). */
export const schedulesAdd: RequestHandler<'schedules/add'> = (params, { daemon }) =>
  answer('schedules/add', async () => ({ schedule: await daemon.scheduler.add(params) }));

export const schedulesList: RequestHandler<'schedules/list'> = (_params, { daemon }) =>
  answer('schedules/list', () => ({ schedules: daemon.scheduler.list() }));

/** Changes an added schedule; a config.json one is refused with how to change it. */
export const schedulesUpdate: RequestHandler<'schedules/update'> = (params, { daemon }) =>
  answer('schedules/update', async () => ({ schedule: await daemon.scheduler.update(params) }));

export const schedulesRemove: RequestHandler<'schedules/remove'> = (params, { daemon }) =>
  answer('schedules/remove', async () => {
    await daemon.scheduler.remove(params.id);
    return {};
  });

/** Runs now; answers once the run has started (or was queued, skipped, or could not start). */
export const schedulesRun: RequestHandler<'schedules/run'> = (params, { daemon }) =>
  answer('schedules/run', () => daemon.scheduler.run(params.id));

export const schedulesHistory: RequestHandler<'schedules/history'> = (params, { daemon }) =>
  answer('schedules/history', () =>
    daemon.scheduler.history(params.id, {
      ...(params.cursor ? { cursor: params.cursor } : {}),
      ...(params.limit !== undefined ? { limit: params.limit } : {}),
    }),
  );
