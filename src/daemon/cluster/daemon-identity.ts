import { randomBytes } from 'node:crypto';

/** A new daemon id, `dmn_` and 16 random hex digits: made once when a daemon starts. */
export function newDaemonId(): string {
  return `dmn_${randomBytes(8).toString('hex')}`;
}
