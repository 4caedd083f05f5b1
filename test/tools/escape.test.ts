import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { editTool } from '../../src/tools/builtin/edit.js';
import { readTool } from '../../src/tools/builtin/read.js';
import { createWebFetchTool } from '../../src/tools/builtin/web-fetch.js';
import { writeTool } from '../../src/tools/builtin/write.js';
import { makeContext, makeTempDir, recordingGate, textOf, type TempDir } from './tool-test-context.js';
import { BUBBLEWRAP, requireProgram } from '../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

/** Every attempt here must be refused; the tests also check nothing happened on disk or on the wire. */
describe('escape attempts', () => {
  let workspace: TempDir;
  let sibling: TempDir;
  beforeEach(() => {
    workspace = makeTempDir();
    sibling = makeTempDir();
    fs.writeFileSync(path.join(sibling.dir, 'secret.txt'), 'top secret\n');
  });
  afterEach(() => {
    workspace.cleanup();
    sibling.cleanup();
  });

  describe.skipIf(!hasBubblewrap)('bash in the sandbox', () => {
    const bash = createBashTool();
    const sandboxed = (): ReturnType<typeof makeContext> => makeContext(workspace.dir, { sandbox: { mode: 'bubblewrap' } });

    it('cannot create files in the real /tmp', async () => {
      const outside = `/tmp/outside-${randomBytes(6).toString('hex')}`;
      await bash.execute({ command: `echo x > ${outside}` }, sandboxed());
      expect(fs.existsSync(outside)).toBe(false);
    });

    it('cannot write into a sibling temp directory', async () => {
      const target = path.join(sibling.dir, 'planted.txt');
      const result = await bash.execute({ command: `echo x > ${target}` }, sandboxed());
      expect(result.details?.exitCode).not.toBe(0);
      expect(fs.existsSync(target)).toBe(false);
      // Nor read it: the sibling is hidden under the sandbox's private /tmp.
      const read = await bash.execute({ command: `cat ${path.join(sibling.dir, 'secret.txt')}` }, sandboxed());
      expect(textOf(read)).not.toContain('top secret');
    });

    it('cannot write outside /tmp either (read-only system)', async () => {
      const target = `/var/tmp/agentd-escape-${randomBytes(6).toString('hex')}`;
      const result = await bash.execute({ command: `echo x > ${target}` }, sandboxed());
      expect(textOf(result)).toContain('Read-only file system');
      expect(fs.existsSync(target)).toBe(false);
    });

    describe('network', () => {
      let server: net.Server;
      let port = 0;
      let connections = 0;
      beforeAll(async () => {
        server = net.createServer((socket) => {
          connections += 1;
          socket.end();
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        port = (server.address() as AddressInfo).port;
      });
      afterAll(async () => {
        await new Promise((resolve) => server.close(resolve));
      });

      it('has no network when not allowed, and has it when allowed (control)', async () => {
        const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;
        const before = connections;
        const blocked = await bash.execute({ command }, sandboxed());
        expect(textOf(blocked)).not.toContain('connected');
        expect(blocked.details?.exitCode).not.toBe(0);
        expect(connections).toBe(before);

        const allowed = await createBashTool({ allowNetwork: true }).execute({ command }, sandboxed());
        expect(textOf(allowed)).toContain('connected');
      });
    });
  });

  describe('file tools', () => {
    it('refuse .. traversal through read, write and edit, asking with the real path', async () => {
      const gate = recordingGate('deny');
      const ctx = makeContext(workspace.dir, { permission: gate });
      const rel = path.relative(workspace.dir, path.join(sibling.dir, 'secret.txt'));
      expect(rel.startsWith('..')).toBe(true);

      const read = await readTool.execute({ path: rel }, ctx);
      expect(read.isError).toBe(true);
      expect(textOf(read)).toContain('outside the workspace');
      expect(textOf(read)).not.toContain('top secret');

      const newFile = path.relative(workspace.dir, path.join(sibling.dir, 'new.txt'));
      const write = await writeTool.execute({ path: newFile, content: 'planted' }, ctx);
      expect(write.isError).toBe(true);
      expect(fs.existsSync(path.join(sibling.dir, 'new.txt'))).toBe(false);

      const edit = await editTool.execute({ path: rel, old: 'top', new: 'bottom' }, ctx);
      expect(edit.isError).toBe(true);
      expect(fs.readFileSync(path.join(sibling.dir, 'secret.txt'), 'utf8')).toBe('top secret\n');

      expect(gate.requests.map((r) => [r.tool, r.access, r.paths])).toEqual([
        ['read', 'read', [path.join(sibling.dir, 'secret.txt')]],
        ['write', 'write', [path.join(sibling.dir, 'new.txt')]],
        ['edit', 'write', [path.join(sibling.dir, 'secret.txt')]],
      ]);
    });

    it('refuse symlinks that point out of the workspace', async () => {
      fs.symlinkSync(sibling.dir, path.join(workspace.dir, 'link'));
      fs.symlinkSync(path.join(sibling.dir, 'secret.txt'), path.join(workspace.dir, 'secret-link'));
      fs.symlinkSync(path.join(sibling.dir, 'dangling-target.txt'), path.join(workspace.dir, 'dangling'));
      const ctx = makeContext(workspace.dir, { permission: recordingGate('deny') });

      expect(textOf(await readTool.execute({ path: 'link/secret.txt' }, ctx))).toContain('outside the workspace');
      expect(textOf(await readTool.execute({ path: 'secret-link' }, ctx))).toContain('outside the workspace');
      expect((await writeTool.execute({ path: 'link/new.txt', content: 'x' }, ctx)).isError).toBe(true);
      expect((await writeTool.execute({ path: 'dangling', content: 'x' }, ctx)).isError).toBe(true);
      expect((await editTool.execute({ path: 'secret-link', old: 'top', new: 'x' }, ctx)).isError).toBe(true);
      expect(fs.readdirSync(sibling.dir)).toEqual(['secret.txt']);
      expect(fs.readFileSync(path.join(sibling.dir, 'secret.txt'), 'utf8')).toBe('top secret\n');
    });
  });

  describe('web_fetch', () => {
    let server: http.Server;
    let port = 0;
    let hits: string[] = [];
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        hits.push(req.url ?? '');
        const target = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
        if (target) {
          res.writeHead(302, { location: target });
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('loopback secret');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });
    beforeEach(() => {
      hits = [];
    });

    const refused = async (tool: ReturnType<typeof createWebFetchTool>, url: string): Promise<string> => {
      const result = await tool.execute({ url }, makeContext(workspace.dir));
      expect(result.isError).toBe(true);
      expect(textOf(result)).not.toContain('loopback secret');
      return textOf(result);
    };

    it('refuses 127.0.0.1, localhost, 169.254.169.254, [::1] and 0.0.0.0 with the default guard', async () => {
      const tool = createWebFetchTool();
      expect(await refused(tool, `http://127.0.0.1:${port}/`)).toContain('127.0.0.1');
      expect(await refused(tool, `http://localhost:${port}/`)).toContain('Refused');
      expect(await refused(tool, 'http://169.254.169.254/latest/meta-data/')).toContain('169.254.169.254');
      expect(await refused(tool, `http://[::1]:${port}/`)).toContain('::1');
      expect(await refused(tool, `http://0.0.0.0:${port}/`)).toContain('Refused');
      expect(await refused(tool, `http://[::ffff:127.0.0.1]:${port}/`)).toContain('Refused');
      expect(hits).toEqual([]);
    });

    it('refuses a redirect from an allowed loopback host to private addresses', async () => {
      const tool = createWebFetchTool({ isAddressAllowed: (ip) => ip === '127.0.0.1' });
      for (const to of ['http://10.0.0.7/', 'http://169.254.169.254/latest/meta-data/', `http://[::1]:${port}/`, 'http://192.168.1.1/']) {
        const text = await refused(tool, `http://127.0.0.1:${port}/r?to=${encodeURIComponent(to)}`);
        expect(text).toContain('Refused');
      }
      // The allowed first hop was served; no redirect target was ever dialled.
      expect(hits).toHaveLength(4);
    });

    it('refuses a name that resolves to any private address', async () => {
      const tool = createWebFetchTool({
        resolveHost: () =>
          Promise.resolve([
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ]),
      });
      expect(await refused(tool, `http://mixed.example:${port}/`)).toContain('127.0.0.1');
      expect(hits).toEqual([]);
    });
  });
});
