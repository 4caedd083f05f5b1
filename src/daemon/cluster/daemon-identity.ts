import { randomBytes } from 'node:crypto';

/**
 * A daemon's id in the store it shares with other daemons: `dmn_` and 16 random hex
 * characters, made once when the daemon starts, so a restarted daemon is a new one and
 * what the old one held (leases, runs) reads as a gone daemon's.
 */
export function createDaemonId(): string {
  return `dmn_${randomBytes(8).toString('hex')}`;
}
