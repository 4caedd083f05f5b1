import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerSpec } from './mcp-server-spec.js';

/**
 * The SDK transport for a server. A stdio server is started with the SDK's safe default
 * environment (PATH, HOME, USER, … — never the daemon's API keys) plus its own `env`; its
 * stderr goes to the daemon log line by line, never to the daemon's stdout, which
 * carries the protocol.
 */
export function openMcpTransport(spec: McpServerSpec, log: (line: string) => void): Transport {
  if (spec.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } });
  }
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    stderr: 'pipe',
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
  });
  // With stderr 'pipe' the SDK hands out a PassThrough before start, so early lines are kept.
  const stderr = transport.stderr as Readable | null;
  if (stderr) {
    createInterface({ input: stderr, crlfDelay: Infinity }).on('line', (line) => log(`mcp ${spec.name}: ${line}`));
  }
  return transport;
}
