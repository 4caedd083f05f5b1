import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a secret so that nobody but its owner can read it at any moment, and readers see
 * the old file or the whole new one: a temp file beside it created 0600 (`wx`, so nothing
 * planted there is reused), fsynced, then renamed over the target. The directory is created
 * 0700. The general atomicWrite of src/tools/files keeps a file's old mode and sits a layer
 * above config/; a secret needs 0600 whatever was there before.
 */
export async function writePrivateFile(filePath: string, data: string): Promise<void> {
  const dir = path.dirname(filePath);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // `open` applies the umask, which can only remove bits; chmod makes 0600 exact.
    await chmod(temp, 0o600);
    await rename(temp, filePath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
