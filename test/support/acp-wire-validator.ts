import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);
const schema = require('@agentclientprotocol/sdk/schema/v1/schema.json') as { $defs: Record<string, any> };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(schema, 'acp');

/** ACP method → the $defs names of its daemon-sent side (result, or params for daemon requests/notifications). */
const byMethod = new Map<string, { request?: string; response?: string }>();
for (const [name, def] of Object.entries(schema.$defs)) {
  const method = def['x-method'] as string | undefined;
  if (!method) continue;
  const entry = byMethod.get(method) ?? {};
  if (name.endsWith('Response')) entry.response = name;
  else entry.request = name;
  byMethod.set(method, entry);
}

function check(defName: string, value: unknown): string[] {
  const validate = ajv.getSchema(`acp#/$defs/${defName}`);
  if (!validate) return [`no ACP definition ${defName}`];
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${defName}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/**
 * Validates every message the daemon wrote against the official ACP schema: responses
 * to ACP requests by the method the client called, daemon notifications and requests
 * by their own method, error answers against `Error`. agentd-only methods are skipped.
 * Returns one line per problem, with the offending message.
 */
export function validateDaemonWire(clientLines: string[], daemonLines: string[]): string[] {
  const methodOfId = new Map<string | number, string>();
  for (const line of clientLines) {
    const m = JSON.parse(line) as { id?: string | number; method?: string };
    if (m.id !== undefined && m.method) methodOfId.set(m.id, m.method);
  }
  const problems: string[] = [];
  for (const line of daemonLines) {
    const m = JSON.parse(line) as { jsonrpc?: string; id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: unknown };
    let errors: string[] = [];
    if (m.method) {
      const def = byMethod.get(m.method)?.request;
      if (def) errors = check(def, m.params);
    } else if (m.error !== undefined) {
      errors = check('Error', m.error);
    } else if (m.id !== undefined && m.id !== null) {
      const method = methodOfId.get(m.id);
      const def = method ? byMethod.get(method)?.response : undefined;
      if (def) errors = check(def, m.result);
    }
    if (m.jsonrpc !== '2.0') errors.push('jsonrpc must be "2.0"');
    for (const e of errors) problems.push(`${e} in ${line.slice(0, 300)}`);
  }
  return problems;
}
