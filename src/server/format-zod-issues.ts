import type { z } from 'zod';

/** `prompt[0].type` style path for one issue; `(root)` for the params object itself. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

/** One line per issue, naming the JSON path and what was expected. */
export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`);
}
