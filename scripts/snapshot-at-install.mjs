// npm's postinstall: an install from the registry gets `agentd serve`'s start-up snapshot
// built for the Node that installs it (a snapshot only fits the Node binary that built it,
// so the publisher's cannot be used). A source checkout has no bundle yet at this point and
// `prepare` builds everything after it, so there is nothing to do. Never fails the install:
// without a snapshot agentd starts the ordinary way, and one line says why.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSnapshotBlob, currentSnapshotKey } from './snapshot-blob.mjs';

const outdir = join(dirname(dirname(fileURLToPath(import.meta.url))), 'dist', 'bin');
try {
  if (existsSync(join(outdir, 'chunks', 'serve-snapshot.cjs'))) {
    const keyFile = join(outdir, 'serve-snapshot.key');
    const built = existsSync(keyFile) ? readFileSync(keyFile, 'utf8') : undefined;
    // Already built for this Node and this folder (npm rebuild, a second install): kept.
    if (built === undefined || built !== currentSnapshotKey(outdir).key) buildSnapshotBlob(outdir);
  }
} catch (error) {
  process.stderr.write(`agentd: no start-up snapshot (agentd serve starts without one): ${error instanceof Error ? error.message : String(error)}\n`);
}
