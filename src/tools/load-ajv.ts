import { createRequire } from 'node:module';

type AjvModule = typeof import('ajv');
type Ajv2020Module = typeof import('ajv/dist/2020.js');

const require = createRequire(import.meta.url);
let classes: { Ajv: AjvModule['Ajv']; Ajv2020: Ajv2020Module['Ajv2020'] } | undefined;

/**
 * ajv's two validator classes (draft-07 and 2020-12), loaded on first use: only a
 * client's or MCP server's JSON Schema needs them, and loading them at start-up cost the
 * daemon tens of milliseconds before its first answer. Synchronous (ajv is CommonJS), so
 * registration can still refuse a broken schema at once.
 */
export function loadAjv(): NonNullable<typeof classes> {
  classes ??= {
    Ajv: (require('ajv') as AjvModule).Ajv,
    Ajv2020: (require('ajv/dist/2020.js') as Ajv2020Module).Ajv2020,
  };
  return classes;
}
