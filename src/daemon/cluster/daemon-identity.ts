import { randomBytes } from 'node:crypto';

/** A daemon's identity in the cluster: `dmn_` and 16 random hex characters, made once per process at start. */
export function createDaemonId(): string {
  return `dmn_${randomBytes(8).toString('hex')}`;
}
