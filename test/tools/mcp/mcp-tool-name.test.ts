import { describe, expect, it } from 'vitest';
import { mcpToolName } from '../../../src/tools/mcp/mcp-tool-name.js';

describe('mcpToolName', () => {
  it('joins server and tool with __ and replaces characters vendors refuse', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('github__create_issue');
    expect(mcpToolName('my server', 'files/read.v2')).toBe('my_server__files_read_v2');
  });

  it('keeps long names within 64 characters and apart from each other', () => {
    const a = mcpToolName('s'.repeat(40), `${'t'.repeat(30)}_a`);
    const b = mcpToolName('s'.repeat(40), `${'t'.repeat(30)}_b`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^s{40}__t{13}_[0-9a-f]{8}$/);
    expect(mcpToolName('s'.repeat(40), `${'t'.repeat(30)}_a`)).toBe(a);
  });
});
