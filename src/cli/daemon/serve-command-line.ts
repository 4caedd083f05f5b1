import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export interface ServeCommandLine {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Whether it starts from the start-up snapshot without the launcher (for tests and benchmarks). */
  snapshot: boolean;
}

/**
 * How this bin starts `agentd serve ARGS` for a bridge. The `agentd` launcher beside it
 * (scripts/agentd-launcher.sh) starts serve from the start-up snapshot when the key written
 * beside the blob at build time still holds; it runs the `node` on PATH, so this Node is put
 * first there. Its shell, subshells and `ls` cost the waiting editor 5–20 ms, so the same
 * key is checked here and, when it holds, the launcher's own command line is run directly.
 * When it does not (another Node, a blob replaced, no key), the launcher runs and logs why.
 */
export function serveCommandLine(binDir: string, args: string[], env: NodeJS.ProcessEnv = process.env): ServeCommandLine {
  const launcher = join(binDir, 'agentd');
  if (!existsSync(launcher)) return { command: process.execPath, args: [join(binDir, 'agentd.cjs'), ...args], env, snapshot: false };
  // The launcher's `node` is the first on PATH, and the daemon's tools get this PATH too.
  const launched = { ...env, PATH: `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}` };
  const direct = snapshotCommand(binDir, launcher);
  return direct ? { command: direct.node, args: [...direct.flags, ...args], env: launched, snapshot: true } : { command: launcher, args, env: launched, snapshot: false };
}

/**
 * The launcher's `exec node $v8_flags --snapshot-blob … serve-snapshot.cjs` when its
 * `snapshot_key` would match the key file: the node it would find (this Node's folder comes
 * first on PATH) and the blob, by inode and size following links, then that node's path and
 * the bin folder without links. Anything unexpected leaves it to the launcher.
 */
function snapshotCommand(binDir: string, launcher: string): { node: string; flags: string[] } | undefined {
  try {
    const node = join(dirname(process.execPath), 'node');
    const dir = realpathSync(binDir);
    const blob = join(dir, 'serve-snapshot.blob');
    const [nodeStat, blobStat] = [statSync(node, { bigint: true }), statSync(blob, { bigint: true })];
    if (!nodeStat.isFile() || !blobStat.isFile()) return undefined;
    // The launcher lists the two with `ls`, which sorts them by name in the user's locale: either order.
    const [nodeStamp, blobStamp] = [`${nodeStat.ino} ${nodeStat.size}`, `${blobStat.ino} ${blobStat.size}`];
    const written = readFileSync(join(dir, 'serve-snapshot.key'), 'utf8');
    if (written !== `${nodeStamp} ${blobStamp} ${node} ${dir}\n` && written !== `${blobStamp} ${nodeStamp} ${node} ${dir}\n`) return undefined;
    // The snapshot only restores under the flags it was built with, which the launcher holds.
    const v8Flags = /^v8_flags=(.*)$/m.exec(readFileSync(launcher, 'utf8'))?.[1]?.split(' ').filter((flag) => flag !== '') ?? [];
    return { node, flags: [...v8Flags, '--snapshot-blob', blob, join(dir, 'chunks', 'serve-snapshot.cjs')] };
  } catch {
    return undefined;
  }
}
