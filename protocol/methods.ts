import type { z } from 'zod';
import { cancelRequestMethod, lspCancelRequestMethod } from './cancel-request.js';
import { daemonEventMethod } from './daemon-events.js';
import { dashboardLoginMethod } from './dashboard.js';
import { daemonStatusMethod } from './daemon-status.js';
import { daemonCostsMethod, daemonSessionsMethod } from './dashboard-queries.js';
import { daemonHealthMethod } from './daemon-health.js';
import { daemonClusterMethod } from './daemon-cluster.js';
import { createElicitationMethod } from './elicitation.js';
import { agentdEventMethod } from './events.js';
import { afterToolCallMethod, beforeToolCallMethod, registerHooksMethod } from './hooks.js';
import { initializeMethod } from './initialize.js';
import type { MethodDescriptor, MethodDirection } from './method-descriptor.js';
import { requestPermissionMethod } from './permission.js';
import {
  addScheduleMethod,
  listSchedulesMethod,
  removeScheduleMethod,
  runScheduleMethod,
  scheduleHistoryMethod,
  updateScheduleMethod,
} from './schedules.js';
import { abortMethod, cancelMethod, compactMethod, followUpMethod, promptMethod, steerMethod } from './prompt.js';
import {
  closeSessionMethod,
  deleteSessionMethod,
  listSessionsMethod,
  loadSessionMethod,
  newSessionMethod,
  resumeSessionMethod,
  sessionInfoMethod,
} from './session.js';
import { setSessionConfigOptionMethod, setSessionModeMethod } from './session-config.js';
import { exportSessionMethod } from './session-export.js';
import { sessionUpdateMethod } from './session-update.js';
import { callToolMethod, listToolsMethod, registerToolsMethod, unregisterToolsMethod } from './tools.js';

/**
 * THE method table: every method of the agentd protocol, once. Server dispatch, the
 * TypeScript client, schema.json and PROTOCOL.md are all derived from it. Order is the
 * order of PROTOCOL.md.
 */
export const methodTable = [
  initializeMethod,
  newSessionMethod,
  loadSessionMethod,
  resumeSessionMethod,
  listSessionsMethod,
  closeSessionMethod,
  deleteSessionMethod,
  setSessionModeMethod,
  setSessionConfigOptionMethod,
  promptMethod,
  cancelMethod,
  sessionUpdateMethod,
  requestPermissionMethod,
  createElicitationMethod,
  abortMethod,
  steerMethod,
  followUpMethod,
  compactMethod,
  registerToolsMethod,
  unregisterToolsMethod,
  listToolsMethod,
  callToolMethod,
  registerHooksMethod,
  beforeToolCallMethod,
  afterToolCallMethod,
  addScheduleMethod,
  listSchedulesMethod,
  updateScheduleMethod,
  removeScheduleMethod,
  runScheduleMethod,
  scheduleHistoryMethod,
  daemonStatusMethod,
  dashboardLoginMethod,
  sessionInfoMethod,
  daemonSessionsMethod,
  daemonCostsMethod,
  exportSessionMethod,
  daemonHealthMethod,
  daemonClusterMethod,
  agentdEventMethod,
  daemonEventMethod,
  cancelRequestMethod,
  lspCancelRequestMethod,
] as const;

/** Any descriptor of the table, with its literal types. */
export type AnyMethod = (typeof methodTable)[number];
/** Every wire method name. */
export type MethodName = AnyMethod['method'];
/** The descriptor of method M. */
export type MethodOf<M extends MethodName> = Extract<AnyMethod, { method: M }>;
/** Params of method M (as validated; no schema here transforms, so input and output agree). */
export type ParamsOf<M extends MethodName> = z.infer<MethodOf<M>['params']>;
/** Result of request M; `void` for notifications. */
export type ResultOf<M extends MethodName> =
  MethodOf<M>['result'] extends z.ZodType ? z.infer<MethodOf<M>['result']> : void;

/** Methods a given side may send, split by kind. `both` counts for either side. */
type Sendable<D extends MethodDirection> = Extract<AnyMethod, { direction: D | 'both' }>;
export type ClientRequestMethod = Extract<Sendable<'client-to-daemon'>, { kind: 'request' }>['method'];
export type ClientNotificationMethod = Extract<Sendable<'client-to-daemon'>, { kind: 'notification' }>['method'];
export type DaemonRequestMethod = Extract<Sendable<'daemon-to-client'>, { kind: 'request' }>['method'];
export type DaemonNotificationMethod = Extract<Sendable<'daemon-to-client'>, { kind: 'notification' }>['method'];

/** Lookup by wire name, for dispatch. */
export const methodsByName: ReadonlyMap<string, MethodDescriptor> = new Map(
  methodTable.map((descriptor): [string, MethodDescriptor] => [descriptor.method, descriptor]),
);

/** Is `name` a method of the protocol? Narrows to MethodName. */
export function isMethodName(name: string): name is MethodName {
  return methodsByName.has(name);
}

/**
 * The extension features of this protocol version, for `initialize` `_meta.agentd.features`:
 * the `feature` of every non-ACP method, in table order.
 */
export function extensionFeatures(): string[] {
  const features = new Set<string>();
  for (const descriptor of methodTable) if (!descriptor.acp) features.add(descriptor.feature);
  return [...features];
}
