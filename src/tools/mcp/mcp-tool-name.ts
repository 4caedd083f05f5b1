import { createHash } from 'node:crypto';

/** Longest tool name the vendors accept (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
const MAX_LENGTH = 64;

/**
 * The name the model calls an MCP tool by: `<server>__<tool>`, every character outside
 * `[A-Za-z0-9_-]` replaced by `_`. A name longer than 64 characters keeps its first 55
 * and ends with `_` and 8 hex digits of a hash of the full name, so two long names that
 * share a prefix stay apart.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MAX_LENGTH) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_LENGTH - 9)}_${hash}`;
}
