import { describe, expect, it } from 'vitest';
import { servingDaemons } from '../../src/server/serving-daemons.js';
import type { DaemonInfo } from '../../src/store/cluster-store.js';

function daemon(id: string, roots: string[], load: { runningTurns?: number; concurrency?: number; alive?: boolean } = {}): DaemonInfo {
  return {
    id,
    host: 'h',
    pid: 1,
    roots,
    concurrency: load.concurrency ?? 8,
    leaseMs: 10_000,
    startedAt: '2026-11-27T08:00:00.000Z',
    heartbeatAt: '2026-11-27T08:00:00.000Z',
    heartbeatAgeMs: 0,
    alive: load.alive ?? true,
    runningTurns: load.runningTurns ?? 0,
    sessionsOwned: [],
  };
}

describe('servingDaemons', () => {
  it('keeps the live daemons whose roots hold the folder (no roots: every folder), never the asking one', () => {
    const daemons = [
      daemon('dmn_a', ['/srv/work']),
      daemon('dmn_b', ['/srv/workshop']),
      daemon('dmn_c', []),
      daemon('dmn_d', ['/srv/work'], { alive: false }),
      daemon('dmn_self', ['/srv/work']),
    ];
    expect(servingDaemons(daemons, '/srv/work/app', 'dmn_self').map((d) => d.id)).toEqual(['dmn_a', 'dmn_c']);
    expect(servingDaemons(daemons, '/srv/workshop/../work', 'dmn_self').map((d) => d.id)).toEqual(['dmn_a', 'dmn_c']);
    expect(servingDaemons(daemons, '/etc', 'dmn_self').map((d) => d.id)).toEqual(['dmn_c']);
  });

  it('puts the least loaded first, by running turns over concurrency, and breaks ties by id', () => {
    const daemons = [
      daemon('dmn_3', [], { runningTurns: 0, concurrency: 8 }),
      daemon('dmn_1', [], { runningTurns: 1, concurrency: 2 }),
      daemon('dmn_2', [], { runningTurns: 1, concurrency: 4 }),
      daemon('dmn_0', [], { runningTurns: 1, concurrency: 4 }),
    ];
    expect(servingDaemons(daemons, '/srv', 'dmn_self').map((d) => d.id)).toEqual(['dmn_3', 'dmn_0', 'dmn_2', 'dmn_1']);
  });
});
