import { methodsByName } from '../../protocol/index.js';

/**
 * Checks daemon notifications and requests against agentd's own protocol schemas
 * (the ACP ones are checked against the official schema by acp-wire-validator).
 */
export function validateAgentdWire(daemonLines: string[]): string[] {
  const problems: string[] = [];
  for (const line of daemonLines) {
    const message = JSON.parse(line) as { method?: string; params?: unknown };
    if (!message.method) continue;
    const descriptor = methodsByName.get(message.method);
    if (!descriptor) {
      problems.push(`unknown method ${message.method}`);
      continue;
    }
    const parsed = descriptor.params.safeParse(message.params);
    if (!parsed.success) problems.push(`${message.method}: ${parsed.error.message.slice(0, 300)} in ${line.slice(0, 300)}`);
  }
  return problems;
}
