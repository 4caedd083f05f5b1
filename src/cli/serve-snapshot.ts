import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { startupSnapshot } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { runCommandLine } from './command-line.js';
import { warmUpForSnapshot } from './snapshot-warm-up.js';
// Evaluated while the snapshot is built, so that a start from it finds the serve command's
// whole static graph (zod, the protocol and config schemas, the server) already in the heap,
// and the daemon proper's (the store, sessions, loop, providers and tools, with their schemas)
// that the shell imports after its first answer.
import './commands/serve.js';
import '../daemon/start-daemon.js';

/**
 * The entry of the V8 startup snapshot `agentd serve` starts from (scripts/bundle-cli.mjs
 * builds it for the Node that will run it; the `agentd` launcher passes it with
 * `--snapshot-blob` when that Node is the one it was built with). Bundled as CommonJS with
 * every package that is not pure, eagerly needed JavaScript left out and loaded at run
 * time through `agentdSnapshotRequire`: a snapshot may only require Node's own modules, and
 * code compiled into it cannot `import()`.
 */
const runtime = globalThis as { agentdSnapshotRequire?: NodeJS.Require; agentdSnapshotModuleUrl?: string };

startupSnapshot.setDeserializeMainFunction(() => {
  // The launcher passes this bundle's own path first, as node would for a script.
  const entry = resolve(process.argv[1]!);
  runtime.agentdSnapshotRequire = createRequire(entry);
  runtime.agentdSnapshotModuleUrl = pathToFileURL(entry).href;
  runCommandLine(process.argv.slice(2));
});

// Compiled and zod's fast paths built now, kept in the snapshot (snapshot-warm-up.ts).
warmUpForSnapshot();
