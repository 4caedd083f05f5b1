import type { ErrorObject } from 'ajv';

/**
 * ajv errors as `field: problem` lines the model can act on, e.g. `path: must be string`,
 * `edits.0.old: is required`, `colour: is not allowed (unknown field)`.
 */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'the arguments are invalid';
  const lines = errors.map((error) => {
    const at = error.instancePath.slice(1).replace(/\//g, '.');
    const prefix = (field: string): string => (at ? `${at}.${field}` : field);
    if (error.keyword === 'required') return `${prefix(String(error.params.missingProperty))}: is required`;
    if (error.keyword === 'additionalProperties') {
      return `${prefix(String(error.params.additionalProperty))}: is not allowed (unknown field)`;
    }
    const allowed = error.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})` : '';
    return `${at || '(arguments)'}: ${error.message ?? 'is invalid'}${allowed}`;
  });
  return [...new Set(lines)].join('; ');
}
