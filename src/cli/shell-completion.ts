import { COMMAND_HELP } from './command-help.js';

/**
 * Completion scripts for bash, zsh and fish, written from the command table: the
 * commands after `agentd`, then each command's sub-commands and flags.
 */
export function shellCompletion(shell: string): string {
  const names = Object.keys(COMMAND_HELP);
  const wordsOf = (name: string): string[] => {
    const help = COMMAND_HELP[name]!;
    return [...(help.subcommands ?? []), ...help.options.map((o) => o.flag), '--help'];
  };
  switch (shell) {
    case 'bash':
      return [
        '# agentd completion for bash: source it, or save it as ~/.local/share/bash-completion/completions/agentd',
        '_agentd() {',
        '  local cur="${COMP_WORDS[COMP_CWORD]}"',
        '  if [ "$COMP_CWORD" -eq 1 ]; then',
        `    COMPREPLY=($(compgen -W "${names.join(' ')} --help --version" -- "$cur")); return`,
        '  fi',
        '  case "${COMP_WORDS[1]}" in',
        ...names.map((name) => `    ${name}) COMPREPLY=($(compgen -W "${wordsOf(name).join(' ')}" -- "$cur")) ;;`),
        '  esac',
        '}',
        'complete -o default -F _agentd agentd',
        '',
      ].join('\n');
    case 'zsh':
      return [
        '#compdef agentd',
        '# agentd completion for zsh: save it as _agentd in a directory on $fpath',
        '_agentd() {',
        '  if (( CURRENT == 2 )); then',
        `    compadd -- ${names.join(' ')} --help --version; return`,
        '  fi',
        '  case "${words[2]}" in',
        ...names.map((name) => `    ${name}) compadd -- ${wordsOf(name).join(' ')} ;;`),
        '  esac',
        '  _files',
        '}',
        '_agentd "$@"',
        '',
      ].join('\n');
    case 'fish':
      return [
        '# agentd completion for fish: save it as ~/.config/fish/completions/agentd.fish',
        'complete -c agentd -f',
        ...names.map((name) => `complete -c agentd -n __fish_use_subcommand -a ${name} -d ${quoteFish(COMMAND_HELP[name]!.summary)}`),
        ...names.flatMap((name) => [
          ...(COMMAND_HELP[name]!.subcommands ?? []).map((sub) => `complete -c agentd -n '__fish_seen_subcommand_from ${name}' -a ${sub}`),
          ...COMMAND_HELP[name]!.options.map(
            (o) => `complete -c agentd -n '__fish_seen_subcommand_from ${name}' -l ${o.flag.slice(2)}${o.value ? ' -r' : ''} -d ${quoteFish(o.help)}`,
          ),
        ]),
        '',
      ].join('\n');
    default:
      throw new Error(`agentd completion: unknown shell "${shell}"; use bash, zsh or fish`);
  }
}

function quoteFish(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
