/** One thing wrong with a config file. */
export interface ConfigProblem {
  /** The file it is in (absolute path). */
  file: string;
  /** JSON path of the offending value, e.g. `providers.local.baseUrl`; absent for file-level problems. */
  path?: string;
  /** 1-based position, for JSON syntax errors. */
  line?: number;
  column?: number;
  /** What is wrong and how to fix it. */
  message: string;
}

/**
 * Thrown by `loadConfig`. The message has one line per problem, each naming the file,
 * the JSON path (or line and column) and the fix, e.g.
 * `/home/me/.config/agentd/config.json: maxTurns: expected a whole number, got the string "ten"`.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(problems.map(formatConfigProblem).join('\n'));
    this.problems = problems;
  }
}

export function formatConfigProblem(problem: ConfigProblem): string {
  const position = problem.line === undefined ? '' : `:${problem.line}:${problem.column ?? 1}`;
  const where = problem.path === undefined ? '' : `${problem.path}: `;
  return `${problem.file}${position}: ${where}${problem.message}`;
}
