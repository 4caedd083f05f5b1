import type { AnyMethod, ParamsOf, ResultOf } from '../../../protocol/index.js';
import { methodTable } from '../../../protocol/index.js';
import type { RequestOptions } from './agentd-connection.js';

/** Methods a client may send (`both` covers the cancel-request notifications). */
type ClientSendable = Extract<AnyMethod, { direction: 'client-to-daemon' | 'both' }>;

/**
 * One convenience method per client-sendable protocol method, named by the descriptor's
 * `clientMethod` (`session/new` → `newSession`), derived from the method table.
 */
export type ProtocolMethods = {
  [D in ClientSendable as D['clientMethod']]: D['kind'] extends 'request'
    ? (params: ParamsOf<D['method']>, options?: RequestOptions) => Promise<ResultOf<D['method']>>
    : (params: ParamsOf<D['method']>) => void;
};

/** What the installed methods call: the client's generic send functions. */
export interface MethodSender {
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  notify(method: string, params: unknown): void;
}

/** Define every ProtocolMethods member on a prototype, from the method table. */
export function installProtocolMethods(prototype: MethodSender): void {
  for (const descriptor of methodTable) {
    if (descriptor.direction === 'daemon-to-client') continue;
    const { method } = descriptor;
    const implementation =
      descriptor.kind === 'request'
        ? function (this: MethodSender, params: unknown, options?: RequestOptions) {
            return this.request(method, params, options);
          }
        : function (this: MethodSender, params: unknown) {
            this.notify(method, params);
          };
    Object.defineProperty(prototype, descriptor.clientMethod, {
      value: implementation,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
}
