import { createInterface } from 'node:readline';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerSpec } from './mcp-server-spec.js';
import { ProcessGroupStdioTransport } from './process-group-stdio-transport.js';

/**
 * The SDK transport for a server. A stdio server is started with the SDK's safe default
 * environment (PATH, HOME, USER, … — never the daemon's API keys) plus its own `env`; its
 * stderr goes to the daemon log line by line, never to the daemon's stdout, which
 * carries the protocol. It runs in its own process group, stopped as a whole.
 */
export function openMcpTransport(spec: McpServerSpec, log: (line: string) => void): Transport {
  if (spec.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } });
  }
  const transport = new ProcessGroupStdioTransport({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
  });
  createInterface({ input: transport.stderr, crlfDelay: Infinity }).on('line', (line) => log(`mcp ${spec.name}: ${line}`));
  return transport;
}
