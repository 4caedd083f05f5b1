import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { median } from '../support/daemon-client.js';
import { startAgentdStdio } from './agentd-stdio-contender.js';
import type { RelayContender } from './relay-run.js';
import { startVendorChild } from './vendor-child.js';
import { streamPieces } from './vendor-stream.js';

/**
 * Two agentd builds relaying the same `paced` answer (one event per read), one after the
 * other in each round, their order alternating: the CPU per event of each and, per round,
 * their ratio. On a shared machine the CPU per event of one run moves by ±50% with what
 * the other core is doing, so a change of 10% shows only in the ratios of runs made side
 * by side. `node dist/bench/relay/paced-pairs.js --base /other/dist/bin/main.js [--chunks 2000] [--rounds 14]`
 * (the first two rounds are warm-up); one JSON line per round, then the medians.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { base: { type: 'string' }, chunks: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '14' } } });
  if (values.base === undefined) throw new Error('--base: the other build to compare with (its dist/bin/main.js) is required');
  const chunks = Number(values.chunks);
  const pieces = streamPieces(chunks);
  const vendor = await startVendorChild(chunks, 'paced');
  const contenders: RelayContender[] = [];
  const cpuUsPerEvent: [number[], number[]] = [[], []];
  try {
    contenders.push(await startAgentdStdio('agentd', vendor.url, pieces.join(''), pieces[0]!.length));
    contenders.push(await startAgentdStdio('base', vendor.url, pieces.join(''), pieces[0]!.length, values.base));
    for (let round = 0; round < Number(values.rounds); round++) {
      const row: number[] = [];
      for (let k = 0; k < 2; k++) {
        const i = (round + k) % 2;
        row[i] = ((await contenders[i]!.run()).cpuMs * 1000) / chunks;
      }
      if (round < 2) continue;
      cpuUsPerEvent[0].push(row[0]!);
      cpuUsPerEvent[1].push(row[1]!);
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      console.log(JSON.stringify({ round, agentdCpuUs: row[0], baseCpuUs: row[1], ratio: round2(row[0]! / row[1]!), load: Number(load) }));
    }
  } finally {
    for (const contender of contenders) await contender.close();
    await vendor.close();
  }
  const ratios = cpuUsPerEvent[0].map((value, i) => value / cpuUsPerEvent[1][i]!);
  console.log(
    JSON.stringify({
      bench: 'paced-pairs',
      chunks,
      rounds: ratios.length,
      agentdCpuUsPerEvent: round2(median(cpuUsPerEvent[0])),
      baseCpuUsPerEvent: round2(median(cpuUsPerEvent[1])),
      medianRatio: round2(median(ratios)),
      roundsBelow1: ratios.filter((ratio) => ratio < 1).length,
    }),
  );
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
