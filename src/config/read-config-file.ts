import type { z } from 'zod';
import type { ConfigProblem } from './config-error.js';
import { describeConfigIssues } from './describe-config-issues.js';
import { locateJsonError } from './locate-json-error.js';
import { FILE_CAPS, readRepositoryFile } from './read-repository-file.js';

/** A config file's JSON, or the problems that keep it from being used. */
export type ConfigFileResult =
  | { kind: 'missing' }
  | { kind: 'ok'; json: Record<string, unknown> }
  | { kind: 'invalid'; problems: ConfigProblem[] };

/**
 * Reads and validates one config file against `schema`. The raw JSON (not the parsed
 * output) is returned so that files are merged as written. A project's file must resolve
 * inside `root` (its repository: projectBoundaries); the user's own file (`root` undefined) may link
 * anywhere. Either must be a regular file of at most FILE_CAPS.config: a link to
 * /dev/zero or a FIFO is refused with the reason, never read without end or waited on.
 */
export function readConfigFile(file: string, schema: z.ZodType, root?: readonly string[]): ConfigFileResult {
  const read = readRepositoryFile(file, { root, cap: FILE_CAPS.config, overCap: 'refuse' });
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind === 'refused') return { kind: 'invalid', problems: [{ file, message: read.message }] };
  const text = read.text;

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
