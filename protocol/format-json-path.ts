const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A path into a JSON document the way people write it in JavaScript:
 * `providers.local.baseUrl`, `schedules[0].cron`, `providers["my.proxy"].headers`.
 * The empty path (the document itself) is `(top level)`. The one formatter for config
 * errors and invalid params alike.
 */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}
