import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NewestFirst } from '../../../src/tools/search/newest-first.js';
import { makeTempDir, writeFileAt, type TempDir } from '../tool-test-context.js';

describe('NewestFirst', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  /** Writes `name` with a modification time `secondsAgo` before a fixed instant. */
  const touch = (name: string, secondsAgo: number): void => writeFileAt(tmp.dir, name, name, new Date(1_700_000_000_000 - secondsAgo * 1000));

  it('keeps the newest `limit` files in the order a full sort gives, ties by path, whatever order they arrive in', () => {
    // 200 files over 40 distinct times, so most times are shared by several files.
    const files = Array.from({ length: 200 }, (_, i) => ({ name: `d${i % 7}/f${(i * 37) % 200}.txt`, age: (i * 13) % 40 }));
    for (const { name, age } of files) touch(name, age);
    const expected = [...files]
      .sort((a, b) => a.age - b.age || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((file) => file.name);
    for (const arrival of [files, [...files].reverse(), [...files].sort((a, b) => b.age - a.age)]) {
      for (const limit of [0, 1, 25, 200, 500]) {
        const newest = new NewestFirst(tmp.dir, limit);
        for (const { name } of arrival) newest.add(name);
        expect(newest.paths()).toEqual(expected.slice(0, limit));
      }
    }
  });

  it('drops files that vanished before their stat, and takes absolute paths as they are', () => {
    touch('old.txt', 30);
    touch('new.txt', 10);
    const newest = new NewestFirst(tmp.dir, 10);
    newest.add('old.txt');
    newest.add('gone.txt');
    newest.add(path.join(tmp.dir, 'new.txt'));
    expect(newest.paths()).toEqual([path.join(tmp.dir, 'new.txt'), 'old.txt']);
  });

  it('resolves relative paths against a cwd given with or without a trailing separator', () => {
    touch('sub/a.txt', 1);
    for (const cwd of [tmp.dir, tmp.dir + path.sep]) {
      const newest = new NewestFirst(cwd, 5);
      newest.add('sub/a.txt');
      expect(newest.paths()).toEqual(['sub/a.txt']);
    }
  });
});
