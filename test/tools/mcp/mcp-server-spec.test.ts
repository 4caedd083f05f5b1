import { describe, expect, it } from 'vitest';
import { specFromConfig, specsFromAcp } from '../../../src/tools/mcp/mcp-server-spec.js';

describe('MCP server specs', () => {
  it('reads config.json servers, stdio and http', () => {
    expect(specFromConfig('fs', { command: 'mcp-fs', args: ['--root', '/'], env: { A: '1' }, cwd: '/tmp' })).toEqual({
      transport: 'stdio',
      name: 'fs',
      command: 'mcp-fs',
      args: ['--root', '/'],
      env: { A: '1' },
      cwd: '/tmp',
      trusted: false,
    });
    expect(specFromConfig('gh', { url: 'https://mcp.example.com/mcp' })).toEqual({ transport: 'http', name: 'gh', url: 'https://mcp.example.com/mcp', headers: {}, trusted: false });
    expect(specFromConfig('gh', { url: 'https://mcp.example.com/mcp', trusted: true })).toMatchObject({ trusted: true });
  });

  it('reads ACP session servers, never trusted, running stdio ones in the session cwd, and refuses SSE naming the entry', () => {
    expect(
      specsFromAcp(
        [
          { name: 'fs', command: '/usr/bin/mcp-fs', args: [], env: [{ name: 'A', value: '1' }] },
          { type: 'http', name: 'gh', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer x' }] },
        ],
        '/work',
      ),
    ).toEqual([
      { transport: 'stdio', name: 'fs', command: '/usr/bin/mcp-fs', args: [], env: { A: '1' }, cwd: '/work', trusted: false },
      { transport: 'http', name: 'gh', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, trusted: false },
    ]);
    expect(() => specsFromAcp([{ type: 'sse', name: 'old', url: 'https://x/sse', headers: [] }], '/work')).toThrow(
      'mcpServers[0]: MCP server "old" uses the legacy SSE transport, which agentd does not support; use {"type": "http"} (streamable HTTP) or stdio',
    );
  });

  it('refuses a relative command from an ACP client, naming the entry, while config.json may name one on PATH', () => {
    for (const command of ['npx', './server', 'bin/server']) {
      expect(() => specsFromAcp([{ name: 'fs', command: '/usr/bin/mcp-fs', args: [], env: [] }, { name: 'rel', command, args: [], env: [] }], '/work')).toThrow(
        `mcpServers[1]: MCP server "rel": command "${command}" is not an absolute path; give the absolute path of the executable (e.g. "/usr/bin/npx"), as ACP requires`,
      );
    }
    expect(specFromConfig('gh', { command: 'npx', args: ['-y', 'gh-mcp'] })).toMatchObject({ transport: 'stdio', command: 'npx' });
  });
});
