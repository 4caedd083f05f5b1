import type { Ajv, ErrorObject } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { loadAjv } from '../load-ajv.js';

// The same options and dialect choice as the tool registry, so a schema accepted here
// is one the registry can compile.
const options = { allErrors: true, strict: false, validateFormats: false, logger: false } as const;
let ajv07: Ajv | undefined;
let ajv2020: Ajv2020 | undefined;

/**
 * Checks a JSON Schema against its meta-schema (draft-07, or 2020-12 when `$schema`
 * names 2019-09 or 2020-12) and returns one `field.path: problem` line per issue,
 * e.g. `properties.line.type: must be equal to one of the allowed values`; empty when
 * the schema is valid.
 */
export function checkJsonSchema(schema: Record<string, unknown>): string[] {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const { Ajv: Draft07, Ajv2020: Draft2020 } = loadAjv();
  const ajv = /2019-09|2020-12/.test(dialect) ? (ajv2020 ??= new Draft2020(options)) : (ajv07 ??= new Draft07(options));
  let valid: boolean;
  try {
    valid = ajv.validateSchema(schema) as boolean;
  } catch (error) {
    return [`$schema: ${(error as Error).message}`];
  }
  if (valid) return [];
  return describe(ajv.errors ?? []);
}

function describe(errors: ErrorObject[]): string[] {
  const lines = errors.map((error) => {
    const at = error.instancePath.slice(1).replace(/\//g, '.') || '(root)';
    const allowed = error.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})` : '';
    return `${at}: ${error.message ?? 'is invalid'}${allowed}`;
  });
  // Meta-schema `anyOf` branches repeat the same complaint; keep each once.
  return [...new Set(lines)];
}
