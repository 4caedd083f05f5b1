import { describe, expect, it } from 'vitest';
import type { DaemonClusterResponse } from '../../protocol/index.js';
import { describeCluster } from '../../src/cli/describe-cluster.js';

const daemon = {
  id: 'dmn_3f2a9c41d07be815',
  self: true,
  host: 'build-1',
  pid: 4242,
  startedAt: '2026-11-27T08:00:00.000Z',
  heartbeatAt: '2026-11-27T09:12:03.120Z',
  heartbeatAgeMs: 1210,
  alive: true,
  runningTurns: 3,
  concurrency: 8,
  queuedRunning: 2,
  roots: ['/srv/work', '/home/ada/code'],
  sessionsOwned: ['s1'],
};

describe('describeCluster (agentd status)', () => {
  it('prints each daemon\'s roots, or every folder for one without', () => {
    const cluster: DaemonClusterResponse = {
      store: { type: 'postgres', location: 'postgres://agentd:***@db/agentd' },
      daemonId: daemon.id,
      daemons: [daemon, { ...daemon, id: 'dmn_0000000000000001', self: false, roots: [] }],
      queue: { kind: 'pg-boss', waiting: 0, heldHere: 0 },
    };
    const lines = describeCluster(cluster);
    expect(lines[2]).toMatch(/^ {4}dmn_3f2a9c41d07be815 \(this one\) .* 3\/8 turns \(2 queued\) {2}1 session\(s\) owned {2}serves \/srv\/work, \/home\/ada\/code$/);
    expect(lines[3]).toMatch(/serves every folder$/);
  });

  it('on SQLite prints the roots of the one daemon when it has any, and nothing more when it has none', () => {
    const sqlite = (roots: string[]): DaemonClusterResponse => ({
      store: { type: 'sqlite', location: '/home/ada/.local/share/agentd/agentd.db' },
      daemonId: daemon.id,
      daemons: [{ ...daemon, roots }],
      queue: { kind: 'in-process', waiting: 0, heldHere: 0 },
    });
    expect(describeCluster(sqlite(['/srv/work']))).toEqual(['  store:    SQLite, /home/ada/.local/share/agentd/agentd.db', '  serves:   /srv/work']);
    expect(describeCluster(sqlite([]))).toEqual(['  store:    SQLite, /home/ada/.local/share/agentd/agentd.db']);
  });

  it('shows control characters in a root instead of sending them to the terminal', () => {
    const lines = describeCluster({
      store: { type: 'sqlite', location: '/db' },
      daemonId: daemon.id,
      daemons: [{ ...daemon, roots: ['/srv/\u001b[2Jwork'] }],
      queue: { kind: 'in-process', waiting: 0, heldHere: 0 },
    });
    expect(lines[1]).not.toContain('\u001b');
  });
});
