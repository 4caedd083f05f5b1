import fs from 'node:fs';
import type { z } from 'zod';
import type { ConfigProblem } from './config-error.js';
import { describeConfigIssues } from './describe-config-issues.js';
import { locateJsonError } from './locate-json-error.js';

/** A config file's JSON, or the problems that keep it from being used. */
export type ConfigFileResult =
  | { kind: 'missing' }
  | { kind: 'ok'; json: Record<string, unknown> }
  | { kind: 'invalid'; problems: ConfigProblem[] };

/**
 * Reads and validates one config file against `schema`. The raw JSON (not the parsed
 * output) is returned so that files are merged as written.
 */
export function readConfigFile(file: string, schema: z.ZodType): ConfigFileResult {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    const reason = code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${code ?? String(error)})`;
    return { kind: 'invalid', problems: [{ file, message: `${reason}; check the path and its permissions` }] };
  }
  // Editors on Windows may save a byte order mark, which JSON.parse rejects.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const located = locateJsonError(text);
    const message = located?.message ?? (error instanceof Error ? error.message : String(error));
    const problem: ConfigProblem = { file, message: `invalid JSON: ${message}` };
    if (located !== undefined) {
      problem.line = located.line;
      problem.column = located.column;
    }
    return { kind: 'invalid', problems: [problem] };
  }

  const result = schema.safeParse(json);
  if (!result.success) {
    const problems = describeConfigIssues(result.error.issues, json, schema).map((d) => ({ file, ...d }));
    return { kind: 'invalid', problems };
  }
  return { kind: 'ok', json: json as Record<string, unknown> };
}
