import { runScaleCase, type ScaleCaseName, type ScaleCaseResult } from './scale-case.js';
import { spawnVendorProcess } from './vendor-process.js';

/**
 * `sessions` sessions streaming `chunks` pieces each at once through one daemon, over one
 * socket and over a socket per session; each run starts a fresh daemon per case, and the
 * cases alternate which goes first (A B, B A, …) so that a busy moment on the shared
 * machine does not always fall on the same one. Each case's figures go to `report` as
 * they come.
 */
export async function benchScale(sessions: number, chunks: number, runs: number, report: (result: ScaleCaseResult & { run: number }) => void): Promise<void> {
  if (sessions < 1 || sessions > 999) throw new Error('sessions: 1 to 999 (the tag has three digits)');
  const server = await spawnVendorProcess(chunks);
  try {
    for (let run = 0; run < runs; run++) {
      const order: ScaleCaseName[] = run % 2 === 0 ? ['one-socket', 'socket-per-session'] : ['socket-per-session', 'one-socket'];
      for (const name of order) report({ run, ...(await runScaleCase(name, server.url, sessions, chunks)) });
    }
    if (server.untagged() > 0) throw new Error(`${server.untagged()} model requests carried no session tag`);
  } finally {
    await server.close();
  }
}
