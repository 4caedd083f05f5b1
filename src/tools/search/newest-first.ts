import { statSync } from 'node:fs';
import path from 'node:path';

/** One kept file: its path as rg printed it and its modification time. */
interface Entry {
  path: string;
  mtimeMs: number;
}

/**
 * The `limit` newest files of a listing made by rg running in parallel, newest first
 * across the whole tree (ties by path, so the order is fixed). Each file is stat'ed as rg
 * reports it, so the stats overlap rg's walk; files that vanished in between are dropped.
 * ripgrep 13 (Debian's) walks single-threaded when sorting (`--sortr modified`) and orders
 * only within each directory: 1 to 1.6 s for 50,000 files on two cores, against 0.06 s to
 * list them (bench/RESULTS.md, "Tools").
 *
 * Only the newest `limit` are kept, in order, instead of every file sorted at the end: most
 * files are older than the last kept one and cost one comparison and no allocation. The
 * stat is synchronous on purpose: on libuv's thread pool (fs.stat with 4 or 32 in flight)
 * the same listing took 2 to 4 times the CPU and longer on two cores, the pool's threads
 * and their callbacks competing with rg's walker threads (bench/RESULTS.md, "Tools").
 */
export class NewestFirst {
  /** The newest files so far, newest first; at most `limit`. */
  private readonly kept: Entry[] = [];
  /** What relative paths are appended to; rg prints them without `./`. */
  private readonly prefix: string;

  /**
   * @param cwd what relative paths are relative to (rg's working directory).
   * @param limit how many files `paths` returns at most.
   */
  constructor(
    cwd: string,
    private readonly limit: number,
  ) {
    this.prefix = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  }

  /** Adds one path as rg printed it (relative to cwd, or absolute when rg was given an absolute path). */
  add(file: string): void {
    // A plain join, not path.resolve, which normalises each of tens of thousands of paths
    // (a tenth to a fifth of the ordering's CPU for 16,780 paths); the kernel resolves them anyway.
    const info = statSync(path.isAbsolute(file) ? file : this.prefix + file, { throwIfNoEntry: false });
    if (!info) return;
    const mtimeMs = info.mtimeMs;
    const kept = this.kept;
    if (kept.length >= this.limit) {
      if (this.limit === 0) return;
      const last = kept[kept.length - 1]!;
      if (!newerThan(mtimeMs, file, last)) return;
      kept.pop();
    }
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (newerThan(mtimeMs, file, kept[middle]!)) high = middle;
      else low = middle + 1;
    }
    kept.splice(low, 0, { path: file, mtimeMs });
  }

  /** The newest `limit` paths, newest first. */
  paths(): string[] {
    return this.kept.map((entry) => entry.path);
  }
}

/**
 * Whether a file sorts before `entry`: newer, or as new with a smaller path. Ties are
 * common (file times tick at the kernel's clock rate); any fixed order will do.
 */
function newerThan(mtimeMs: number, file: string, entry: Entry): boolean {
  return mtimeMs > entry.mtimeMs || (mtimeMs === entry.mtimeMs && file < entry.path);
}
