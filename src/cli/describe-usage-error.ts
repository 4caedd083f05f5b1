import { closestMatch } from '../config/closest-match.js';
import { COMMAND_HELP } from './command-help.js';

/**
 * What `agentd` says about a mistyped command, action or option: the word, the nearest
 * real one when one is close ("Did you mean …?"), and where the full list is. Node's
 * parseArgs errors are rephrased in CLI terms (they suggest `--` for positionals, which
 * only helps a prompt that starts with a dash).
 */
export function unknownCommandMessage(word: string): string {
  return `agentd: unknown command '${word}'.${didYouMean(word, Object.keys(COMMAND_HELP))} Run 'agentd --help' for the commands.`;
}

/** A first word that is not one of the command's actions, when it is close to one; undefined otherwise (the command decides). */
export function mistypedActionMessage(command: string, word: string | undefined): string | undefined {
  const actions = COMMAND_HELP[command]?.subcommands;
  if (actions === undefined || word === undefined || word.startsWith('-') || actions.includes(word)) return undefined;
  const near = closestMatch(word, actions);
  return near === undefined ? undefined : `agentd ${command}: unknown action '${word}'. Did you mean '${near}'? Run 'agentd ${command} --help' for its usage.`;
}

/** A parseArgs error of `agentd COMMAND` in CLI terms, or undefined when `error` is not one. */
export function describeParseError(command: string, error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  const help = `Run 'agentd ${command} --help' for its options.`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? '';
    const prompt = command === 'run' ? ` A prompt that starts with '-' goes after '--': agentd run -- "${option} …".` : '';
    return `agentd ${command}: unknown option '${option}'.${didYouMean(option, flagsOf(command))} ${help}${prompt}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
    const value = COMMAND_HELP[command]?.options.find((o) => o.flag === option)?.value;
    if (/argument missing/.test(message)) return `agentd ${command}: ${option} needs a value${value !== undefined ? ` (${option} ${value})` : ''}. ${help}`;
    return `agentd ${command}: ${option} takes no value; give it alone. ${help}`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']*)'/.exec(message)?.[1] ?? '';
    return `agentd ${command}: unexpected argument '${word}'. ${help}`;
  }
  return undefined;
}

function flagsOf(command: string): string[] {
  return (COMMAND_HELP[command]?.options ?? []).map((o) => o.flag);
}

function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closestMatch(word, candidates);
  return near === undefined ? '' : ` Did you mean '${near}'?`;
}
