import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file so readers never see it half-written: the content goes to a temp file in
 * the same directory (same filesystem, so `rename` is atomic), is fsynced, takes the old
 * file's mode, then replaces the target. Parent directories are created.
 */
export async function atomicWrite(filePath: string, data: string | Buffer): Promise<void> {
  const dir = path.dirname(filePath);
  await mkdir(dir, { recursive: true });
  const mode = await stat(filePath).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  const temp = path.join(dir, `.${path.basename(filePath)}.agentd-${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // `open` applies the umask; chmod restores the original mode exactly.
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, filePath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
