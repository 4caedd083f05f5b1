import { parseArgs } from 'node:util';
import { benchRelay } from './bench-relay.js';
import { WRITE_MODES, type WriteMode } from './vendor-stream.js';

/** `node dist/bench/relay/run-relay.js [--chunks N] [--pi-chunks N] [--long N] [--modes 16k,event] [--runs N] [--warmup N] [--no-pi]`: one JSON line per stream. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      chunks: { type: 'string', default: '5000' },
      'pi-chunks': { type: 'string', default: '2000' },
      long: { type: 'string', default: '50000' },
      modes: { type: 'string', default: WRITE_MODES.join(',') },
      runs: { type: 'string', default: '7' },
      warmup: { type: 'string', default: '3' },
      'no-pi': { type: 'boolean', default: false },
    },
  });
  await benchRelay({
    chunks: Number(values.chunks),
    piChunks: Number(values['pi-chunks']),
    longChunks: Number(values.long),
    modes: values.modes!.split(',') as WriteMode[],
    runs: Number(values.runs),
    warmup: Number(values.warmup),
    pi: !values['no-pi'],
    baseCli: process.env.AGENTD_BENCH_BASE_CLI,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
