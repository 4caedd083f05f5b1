// Runs the serve bundle (dist/bin/chunks/serve-snapshot.cjs, made by build-serve-snapshot.mjs)
// once under this Node with --build-snapshot and writes the key the launcher checks beside
// the blob. Node's own modules only: an install from the registry runs it at postinstall
// (snapshot-at-install.mjs), where the build's tools (esbuild, tsc) are not installed.
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** The key the launcher in `outdir` computes for this Node and this blob (empty when it cannot). */
export function currentSnapshotKey(outdir) {
  const key = spawnSync('sh', [join(outdir, 'agentd')], {
    env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, AGENTD_PRINT_SNAPSHOT_KEY: '1' },
    encoding: 'utf8',
  });
  return { key: key.status === 0 ? key.stdout : '', error: key.stderr.trim() };
}

/** Builds `outdir`/serve-snapshot.blob and its key; on failure one line says why and serve starts without it. */
export function buildSnapshotBlob(outdir) {
  const entry = join(outdir, 'chunks', 'serve-snapshot.cjs');
  const blob = join(outdir, 'serve-snapshot.blob');
  const keyFile = join(outdir, 'serve-snapshot.key');
  rmSync(keyFile, { force: true });
  const partial = `${blob}.${process.pid}`;
  // Without the CA bundle or other options the user's node would not have either.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  // V8 restores a snapshot only under the flags it was built with: the launcher's.
  const v8Flags = /^v8_flags=(.*)$/m.exec(readFileSync(join(outdir, 'agentd'), 'utf8'))?.[1]?.split(' ') ?? [];
  const built = spawnSync(process.execPath, [...v8Flags, '--snapshot-blob', partial, '--build-snapshot', entry], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (built.status !== 0) {
    rmSync(partial, { force: true });
    const reason = built.error?.message ?? built.stderr.trim().split('\n').slice(-3).join(' ');
    process.stderr.write(`agentd: no start-up snapshot (agentd serve starts without one): ${reason}\n`);
    return;
  }
  // Written whole or not at all: a truncated blob would crash node rather than be refused.
  renameSync(partial, blob);
  const { key, error } = currentSnapshotKey(outdir);
  if (key.trim() === '') {
    process.stderr.write(`agentd: no start-up snapshot (agentd serve starts without one): its key could not be computed (${error})\n`);
    return;
  }
  writeFileSync(keyFile, key);
}
