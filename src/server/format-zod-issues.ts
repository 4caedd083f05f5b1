import type { z } from 'zod';
import { formatJsonPath } from '../../protocol/index.js';

/** One line per issue, naming the JSON path and what was expected. */
export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${formatJsonPath(issue.path)}: ${issue.message}`);
}
