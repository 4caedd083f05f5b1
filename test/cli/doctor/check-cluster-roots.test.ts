import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkClusterRoots } from '../../../src/cli/doctor/check-cluster-roots.js';
import { runDoctor } from '../../../src/cli/doctor/run-doctor.js';
import { makeTempHome, type TempHome } from './temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
  fs.mkdirSync(path.join(t.home, 'work'));
});
afterEach(() => t.cleanup());

describe('the served folders check (cluster.roots)', () => {
  it('has no line without roots: the daemon serves every folder', () => {
    expect(checkClusterRoots({})).toEqual([]);
    expect(checkClusterRoots({ cluster: { roots: [] } })).toEqual([]);
  });

  it('reports the roots, and the real path of one reached through a symbolic link', () => {
    fs.symlinkSync(path.join(t.home, 'work'), path.join(t.home, 'link'));
    expect(checkClusterRoots({ cluster: { roots: [`${t.home}/work/`, path.join(t.home, 'link')] } })).toEqual([
      {
        id: 'cluster:roots',
        title: 'served folders',
        status: 'ok',
        detail: `sessions in ${path.join(t.home, 'work')}, ${path.join(t.home, 'link')} (${path.join(t.home, 'work')}) (cluster.roots); other folders go to the daemons that serve them`,
      },
    ]);
  });

  it('fails naming every root missing here, as the daemon would not start', async () => {
    t.writeConfig({ cluster: { roots: [path.join(t.home, 'work'), path.join(t.home, 'wrok'), path.join(t.home, 'gone')] } });
    const report = await runDoctor({ env: t.env, cwd: t.home });
    const check = report.checks.find((entry) => entry.id === 'cluster:roots');
    expect(check?.status).toBe('fail');
    expect(check?.detail.split('\n')).toEqual([
      expect.stringContaining(`cluster.roots: ${path.join(t.home, 'wrok')} does not exist on this machine`),
      expect.stringContaining(`cluster.roots: ${path.join(t.home, 'gone')} does not exist on this machine`),
    ]);
    expect(check?.fix).toContain('the daemon does not start until every root exists');
    expect(report.ok).toBe(false);
  });
});
