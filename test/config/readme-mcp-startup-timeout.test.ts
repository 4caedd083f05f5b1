import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AgentdConfigSchema } from '../../src/config/config-schema.js';
import { specFromConfig } from '../../src/tools/mcp/mcp-server-spec.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** The README's inline config fragments that set an MCP startup limit, as printed (line breaks joined). */
function fragments(): string[] {
  const text = README.replace(/\n\s*/g, ' ');
  return [...text.matchAll(/`("(?:mcpServers|tools)": \{[^`]*startupTimeoutMs[^`]*\})`/gi)].map((m) => m[1]!);
}

describe('the README on MCP startup limits', () => {
  it('shows config fragments that load as printed and set the limits they say', () => {
    const [perServer, everyServer] = fragments();
    expect(fragments()).toHaveLength(2);
    const one = AgentdConfigSchema.parse(JSON.parse(`{${perServer}}`));
    expect(specFromConfig('docs', one.mcpServers!.docs!)).toMatchObject({ command: 'npx', args: ['docs-mcp'], startupTimeoutMs: 30000 });
    expect(AgentdConfigSchema.parse(JSON.parse(`{${everyServer}}`)).tools?.mcpStartupTimeoutMs).toBe(30000);
  });

  it('refuses a limit too short to start anything', () => {
    expect(AgentdConfigSchema.safeParse({ mcpServers: { docs: { command: 'npx', startupTimeoutMs: 5 } } }).success).toBe(false);
  });
});
