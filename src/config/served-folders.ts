import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { normalizeFolder, rootsServe } from './folder-roots.js';

/**
 * A folder as it is on this machine: the real path of its longest part that exists here
 * (symbolic links resolved), then the rest as written, normalized. A symbolic link inside a
 * root that points outside it is judged by where it points; a folder this machine does not
 * have is judged by its spelling under the nearest folder it does.
 */
export function realFolderHere(folder: string): string {
  const normalized = normalizeFolder(folder);
  const rest: string[] = [];
  let existing = normalized;
  for (;;) {
    try {
      return normalizeFolder(path.posix.join(realpathSync(existing), ...rest));
    } catch {
      if (existing === '/') return normalized;
      rest.unshift(path.posix.basename(existing));
      existing = path.posix.dirname(existing);
    }
  }
}

/** A configured root this machine does not have: the daemon does not start (a typo must not serve nothing). */
export class MissingRootError extends Error {
  constructor(
    readonly root: string,
    reason: string,
  ) {
    super(
      `cluster.roots: ${root} ${reason} on this machine; create it, correct the entry in config.json, ` +
        'or remove it (no roots means this daemon serves every folder)',
    );
    this.name = 'MissingRootError';
  }
}

/**
 * The folders this daemon serves (`cluster.roots`), each resolved to its real path at
 * start. No roots: every folder, answered without touching the file system.
 */
export class ServedFolders {
  private constructor(readonly roots: readonly string[]) {}

  /** Every folder: the default, and what one daemon without `cluster.roots` serves. */
  static readonly everyFolder = new ServedFolders([]);

  /** Resolves each configured root (absolute, checked by the config schema); throws MissingRootError for one that is not a folder here. */
  static resolve(configured: readonly string[] | undefined): ServedFolders {
    if (!configured || configured.length === 0) return ServedFolders.everyFolder;
    const roots = configured.map((entry) => {
      const root = normalizeFolder(entry);
      let real: string;
      try {
        real = realpathSync(root);
      } catch {
        throw new MissingRootError(root, 'does not exist');
      }
      if (!statSync(real).isDirectory()) throw new MissingRootError(root, 'is not a folder');
      return real;
    });
    return new ServedFolders([...new Set(roots)]);
  }

  /** True when no roots were configured: every folder is served, and no check reads anything. */
  get all(): boolean {
    return this.roots.length === 0;
  }

  /** Whether sessions in `folder` run here, judged by its real path where this machine has it. */
  serves(folder: string): boolean {
    return this.all || rootsServe(this.roots, realFolderHere(folder));
  }
}
