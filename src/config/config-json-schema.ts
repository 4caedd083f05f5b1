import { z } from 'zod';
import { AgentdConfigSchema } from './config-schema.js';

/** Where the published schema lives in the package, and what a config's `"$schema"` names. */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';

/**
 * config.json's JSON Schema, derived from the zod schema the loader validates with (zod 4's
 * z.toJSONSchema, https://zod.dev/json-schema), so editors complete and check the same
 * fields agentd accepts. Checks that JSON Schema cannot say (cron expressions, permission
 * rules) are the loader's alone.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(AgentdConfigSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return { ...schema, title: 'agentd config.json', description: 'The user config (config.json) and a project\'s .agentd/config.json; every field is optional.' };
}

/** The file's exact text, as committed at the package root. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
