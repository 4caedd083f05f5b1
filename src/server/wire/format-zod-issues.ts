import type { z } from 'zod';
import { formatJsonPath } from '../../../protocol/index.js';

/**
 * One line per issue, naming the JSON path and what was expected. A missing field says
 * "is required" rather than zod's "received undefined" (which reads like a value was
 * sent); that needs the issue's input, so parse with `{ reportInput: true }`.
 */
export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined) {
      return `${formatJsonPath(issue.path)}: is required (expected ${issue.expected})`;
    }
    return `${formatJsonPath(issue.path)}: ${issue.message}`;
  });
}
