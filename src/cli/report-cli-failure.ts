import { ConfigError } from '../config/config-error.js';
import { showControlCharacters } from '../config/show-control-characters.js';
import { inCliTerms } from './describe-daemon-error.js';
import { describeParseError } from './describe-usage-error.js';

/** A command line agentd cannot read: one message, exit 2 (as the shells' own usage errors). */
export function reportUsageError(message: string): number {
  process.stderr.write(`${showControlCharacters(message)}\n`);
  return 2;
}

/**
 * What a failed command prints and the exit status it ends with: a mistyped option of
 * `command` is a usage error (2), a configuration error 78, anything else 1.
 */
export function reportCommandFailure(command: string | undefined, error: unknown): number {
  const usage = command === undefined ? undefined : describeParseError(command, error);
  if (usage !== undefined) return reportUsageError(usage);
  // An error can quote a repository file's path or text, or a daemon's answer: lines kept, every other control shown.
  const message = showControlCharacters(error instanceof Error ? inCliTerms(error) : String(error), { keep: '\n' });
  // A command's own errors already start with its name ("agentd sessions: …").
  process.stderr.write(message.startsWith('agentd ') ? `${message}\n` : `agentd: ${message}\n`);
  return error instanceof ConfigError ? 78 : 1;
}
