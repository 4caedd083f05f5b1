import { ScheduleInvalidError, ScheduleNotFoundError, ScheduleReadOnlyError } from '../scheduler/schedule-errors.js';
import { StoreError } from '../store/store-error.js';
import { RpcError } from './wire/rpc-error.js';

/** The scheduler's errors as JSON-RPC errors; anything else is passed on unchanged. */
export function scheduleErrorToRpc(method: string, error: unknown): unknown {
  if (error instanceof ScheduleNotFoundError) return RpcError.notFound(error.message);
  if (error instanceof ScheduleInvalidError) return RpcError.invalidParams(method, error.issues);
  if (error instanceof ScheduleReadOnlyError) return RpcError.invalidParams(method, [error.message]);
  // A history cursor that is not one the daemon gave.
  if (error instanceof StoreError && error.code === 'invalid_argument') return RpcError.invalidParams(method, [error.message]);
  return error;
}
