import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MissingRootError, ServedFolders, realFolderHere } from '../../src/config/served-folders.js';

let dir: string;
beforeEach(() => {
  // Real path: the temporary folder may itself sit behind a symbolic link.
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-roots-')));
  mkdirSync(join(dir, 'work', 'app'), { recursive: true });
  mkdirSync(join(dir, 'workshop'));
  mkdirSync(join(dir, 'secret'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ServedFolders', () => {
  it('serves every folder without roots, and reads nothing to say so', () => {
    for (const configured of [undefined, []]) {
      const served = ServedFolders.resolve(configured);
      expect(served.all).toBe(true);
      expect(served.roots).toEqual([]);
      expect(served.serves('/no/such/folder')).toBe(true);
    }
  });

  it('resolves each root to its real path, normalized, once', () => {
    symlinkSync(join(dir, 'work'), join(dir, 'work-link'));
    const served = ServedFolders.resolve([`${dir}/work-link/`, `${dir}//work/.`]);
    expect(served.roots).toEqual([join(dir, 'work')]);
    expect(served.serves(join(dir, 'work-link', 'app'))).toBe(true);
  });

  it('refuses a root that does not exist, or is a file, naming it and how to fix it', () => {
    writeFileSync(join(dir, 'file'), '');
    expect(() => ServedFolders.resolve([join(dir, 'work'), join(dir, 'wrok')])).toThrow(MissingRootError);
    expect(() => ServedFolders.resolve([join(dir, 'wrok')])).toThrow(
      `cluster.roots: ${join(dir, 'wrok')} does not exist on this machine; create it, correct the entry in config.json, or remove it (no roots means this daemon serves every folder)`,
    );
    expect(() => ServedFolders.resolve([`${join(dir, 'file')}/`])).toThrow(`cluster.roots: ${join(dir, 'file')} is not a folder on this machine`);
  });

  it('judges a folder by whole path components, in every spelling', () => {
    const served = ServedFolders.resolve([join(dir, 'work')]);
    expect(served.serves(join(dir, 'work'))).toBe(true);
    expect(served.serves(`${dir}/work/`)).toBe(true);
    expect(served.serves(`${dir}//work/./app`)).toBe(true);
    expect(served.serves(join(dir, 'workshop'))).toBe(false);
    expect(served.serves(`${dir}/work/../workshop`)).toBe(false);
    expect(served.serves(`${dir}/work/..`)).toBe(false);
    expect(served.serves(dir)).toBe(false);
  });

  it('judges a symbolic link inside a root by where it points: outside is not served', () => {
    const served = ServedFolders.resolve([join(dir, 'work')]);
    symlinkSync(join(dir, 'secret'), join(dir, 'work', 'escape'));
    symlinkSync('../../secret', join(dir, 'work', 'app', 'relative-escape'));
    symlinkSync(join(dir, 'work', 'app'), join(dir, 'work', 'inside'));
    expect(served.serves(join(dir, 'work', 'escape'))).toBe(false);
    expect(served.serves(join(dir, 'work', 'escape', 'deeper', 'not-made-yet'))).toBe(false);
    expect(served.serves(join(dir, 'work', 'app', 'relative-escape'))).toBe(false);
    expect(served.serves(join(dir, 'work', 'inside'))).toBe(true);
    // A link outside the roots pointing in is served: the folder is the root's.
    symlinkSync(join(dir, 'work', 'app'), join(dir, 'way-in'));
    expect(served.serves(join(dir, 'way-in'))).toBe(true);
  });

  it('judges a folder this machine does not have by its spelling under the nearest folder it has', () => {
    const served = ServedFolders.resolve([join(dir, 'work')]);
    expect(served.serves(join(dir, 'work', 'not', 'here'))).toBe(true);
    expect(served.serves(join(dir, 'workshop', 'not', 'here'))).toBe(false);
    expect(served.serves('/no/such/folder')).toBe(false);
  });
});

describe('realFolderHere', () => {
  it('resolves the part that exists and keeps the rest, normalized', () => {
    symlinkSync(join(dir, 'work'), join(dir, 'link'));
    expect(realFolderHere(`${dir}/link/app/`)).toBe(join(dir, 'work', 'app'));
    expect(realFolderHere(`${dir}/link/new//sub/.`)).toBe(join(dir, 'work', 'new', 'sub'));
    expect(realFolderHere('/no/such/../folder/')).toBe('/no/folder');
  });
});
