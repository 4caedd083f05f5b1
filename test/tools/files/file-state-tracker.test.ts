import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStateTracker, snapshotFile } from '../../../src/tools/files/file-state-tracker.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';

describe('FileStateTracker', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('tells unread, unchanged, touched, changed and deleted files apart', async () => {
    const file = path.join(tmp.dir, 'f.txt');
    fs.writeFileSync(file, 'one');
    const tracker = new FileStateTracker();
    expect(await tracker.checkUnchanged(file)).toBe('not-read');
    tracker.record(file, await snapshotFile(file));
    expect(await tracker.checkUnchanged(file)).toBeUndefined();
    const later = new Date(Date.now() + 10_000);
    fs.utimesSync(file, later, later);
    expect(await tracker.checkUnchanged(file)).toBeUndefined();
    fs.writeFileSync(file, 'two');
    fs.utimesSync(file, later, later);
    expect(await tracker.checkUnchanged(file)).toBe('changed');
    fs.writeFileSync(file, 'three!');
    expect(await tracker.checkUnchanged(file)).toBe('changed');
    fs.rmSync(file);
    expect(await tracker.checkUnchanged(file)).toBe('deleted');
    tracker.forget(file);
    expect(tracker.get(file)).toBeUndefined();
  });
});
