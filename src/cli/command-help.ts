/**
 * What each command does and takes, in one table: `agentd --help`, `agentd COMMAND
 * --help`, `agentd help COMMAND` and the shell completions are all written from it, so
 * they cannot disagree.
 */
export interface CommandHelp {
  /** The command line, as typed (after `agentd`). */
  usage: string[];
  summary: string;
  /** More lines after the summary: what it does in detail, exit codes. */
  details?: string[];
  /** Flags, with a value placeholder when they take one. */
  options: Array<{ flag: string; value?: string; help: string }>;
  /** Words that may follow the command (sub-commands), for completion. */
  subcommands?: string[];
}

const CONFIG = { flag: '--config', value: 'FILE', help: 'read this config file instead of the default one' };
const CWD = { flag: '--cwd', value: 'DIR', help: 'the project directory (default: the current directory)' };
const JSON_OUT = { flag: '--json', help: 'print JSON instead of text' };
const PERMISSION_MODE = {
  flag: '--permission-mode',
  value: 'MODE',
  help: 'ask (default), acceptEdits, bypass or deny: what happens to tool calls that would ask',
};

export const COMMAND_HELP: Record<string, CommandHelp> = {
  serve: {
    usage: ['serve [--stdio] [--socket [PATH]] [--listen HOST:PORT] [--http [HOST:]PORT [--http-any-host]] [--on-demand] [--config FILE] [--permission-mode MODE]'],
    summary: 'run the daemon: one client on stdio, or many on a Unix socket or TCP until SIGINT/SIGTERM',
    details: [
      'With no flag it serves stdio, bridged to the shared daemon when one owns the data directory.',
      'A socket daemon runs until stopped (agentd stop); with --on-demand, as agentd acp starts it, it exits',
      'after server.idleExitMs (30 min) with no client, running turn, queued message or enabled schedule.',
      'A socket or TCP daemon also serves the web dashboard on server.http when it is set (agentd dashboard).',
    ],
    options: [
      { flag: '--stdio', help: 'serve one client on stdin/stdout (the default)' },
      { flag: '--socket', value: '[PATH]', help: 'serve clients on a Unix socket (default path: see agentd doctor)' },
      { flag: '--listen', value: 'HOST:PORT', help: 'serve clients on TCP; they authenticate with the token file' },
      { flag: '--http', value: '[HOST:]PORT', help: 'also serve the web dashboard over HTTP (127.0.0.1 unless HOST; port 0: any free one)' },
      { flag: '--http-any-host', help: 'allow --http or server.http on an address that is not loopback (warns on stderr)' },
      { flag: '--on-demand', help: 'with --socket: exit when idle (server.idleExitMs) and log to daemon.log' },
      CONFIG,
      PERMISSION_MODE,
    ],
  },
  acp: {
    usage: ['acp [--socket PATH] [--config FILE]'],
    summary: 'stdio bridge to the shared daemon for ACP editors (starts the daemon when none runs)',
    options: [{ flag: '--socket', value: 'PATH', help: "the daemon's socket (default: the data directory's)" }, CONFIG],
  },
  run: {
    usage: [
      'run [--model P/M] [--agent NAME] [--session ID | --continue] [--cwd DIR] [--json] [--permission-mode MODE] "PROMPT"',
      'run [options] -   (the prompt from stdin)',
      'run --detach [--model P/M] [--agent NAME] [--session ID | --continue] [--cwd DIR] [--json] "PROMPT"',
    ],
    summary: 'run one prompt and stream the answer to stdout; tool calls, retries and cost go to stderr',
    details: [
      'In the shared daemon when one owns the data directory (its config applies), else in this process.',
      'Ctrl-C stops the turn (what was said is stored); a second Ctrl-C quits at once.',
      '--detach queues the prompt in the running daemon (any daemon of the cluster on PostgreSQL takes it),',
      'prints the session id and exits; its questions go to the clients following the session.',
      'Exit codes: 0 done, 1 the model or a request failed, 3 no provider is configured, 4 out of turns,',
      '5 over budget, 6 the model refused, 7 output limit reached, 78 invalid configuration, 130 cancelled.',
    ],
    options: [
      { flag: '--model', value: 'P/M', help: 'the model, as provider/model (agentd models lists them)' },
      { flag: '--agent', value: 'NAME', help: 'the agent (session mode): build, plan, explore or one of yours' },
      { flag: '--session', value: 'ID', help: 'go on with this stored session (agentd sessions lists them)' },
      { flag: '--continue', help: 'go on with the newest session of this directory (-c)' },
      { flag: '--detach', help: 'queue the prompt in the running daemon, print the session id and exit' },
      CWD,
      { flag: '--json', help: 'print the ACP session/update and agentd/event notifications, then a result line' },
      CONFIG,
      PERMISSION_MODE,
    ],
  },
  sessions: {
    usage: [
      'sessions [list] [--cwd DIR] [--json] [--all]',
      'sessions show ID [--json]',
      'sessions export ID [--format markdown|json] [-o FILE]',
      'sessions delete ID',
    ],
    summary: 'list, show, export or delete stored sessions',
    details: [
      'list: newest first, with their titles. show: the conversation as Markdown, long tool results cut.',
      'export: the whole conversation as Markdown or JSON (session, turns, messages). delete: through the',
      'running daemon when one owns the data directory. All of them read the store the daemon uses: the',
      'shared PostgreSQL database when the config\'s store or AGENTD_STORE_URL names one.',
    ],
    options: [
      { flag: '--cwd', value: 'DIR', help: 'list only sessions of this directory' },
      JSON_OUT,
      { flag: '--all', help: 'list every session, not only the newest 50' },
      { flag: '--format', value: 'FMT', help: 'export as markdown (default) or json' },
      { flag: '--output', value: 'FILE', help: 'export to this file instead of stdout (-o)' },
    ],
    subcommands: ['list', 'show', 'export', 'delete'],
  },
  schedules: {
    usage: [
      'schedules [list] [--json]',
      'schedules add --name NAME --cron "EXPR" --prompt "TEXT" [--cwd DIR] [--timezone TZ] [options]',
      'schedules update ID [--cron "EXPR"] [--enable | --disable] [options]',
      'schedules remove ID',
      'schedules run ID',
      'schedules history ID [--limit N] [--cursor C] [--json]',
    ],
    summary: 'cron-scheduled prompts in the running daemon: list, add, change, remove, run now, history',
    details: [
      'Each run is a new session (agentd sessions show ID). Talks to the daemon that owns the data directory',
      '(agentd serve --socket); it checks every field. Schedules from config.json are read-only here.',
      'Runs are headless: in permission mode ask (the default) a call that would ask is refused.',
    ],
    options: [
      { flag: '--name', value: 'NAME', help: 'unique name of the schedule' },
      { flag: '--cron', value: 'EXPR', help: '5 fields (minute hour day month weekday) or 6 (seconds first), or @daily' },
      { flag: '--timezone', value: 'TZ', help: "IANA time zone like Europe/Berlin (default: the daemon's)" },
      { flag: '--prompt', value: 'TEXT', help: 'the prompt each run sends' },
      { flag: '--cwd', value: 'DIR', help: 'the run sessions\' directory (default: the current directory)' },
      { flag: '--agent', value: 'NAME', help: 'the agent of the run sessions' },
      { flag: '--model', value: 'P/M', help: 'the model of the run sessions, as provider/model' },
      { flag: '--timeout-ms', value: 'N', help: 'abort a run after N milliseconds (default 180000)' },
      { flag: '--budget-usd', value: 'N', help: 'stop a run once it would spend more than N dollars' },
      { flag: '--permission-mode', value: 'MODE', help: 'ask (default), acceptEdits, bypass or deny' },
      { flag: '--overlap', value: 'skip|queue', help: 'when a run is due while one runs: skip it (default) or queue one' },
      { flag: '--run-missed', help: 'run once at start-up if a time passed while the daemon was down' },
      { flag: '--no-run-missed', help: 'with update: do not catch up on missed times' },
      { flag: '--enable', help: 'with update: let it run by itself again' },
      { flag: '--disable', help: 'keep it, but never run it by itself' },
      { flag: '--limit', value: 'N', help: 'with history: runs per page (default 20)' },
      { flag: '--cursor', value: 'C', help: 'with history: the page after the one that printed this cursor' },
      JSON_OUT,
    ],
    subcommands: ['list', 'add', 'update', 'remove', 'run', 'history'],
  },
  models: {
    usage: ['models [--provider ID] [--configured] [--json] [--config FILE]'],
    summary: 'the model catalog and configured models, with prices',
    options: [
      { flag: '--provider', value: 'ID', help: "only this provider's models" },
      { flag: '--configured', help: 'only usable models; asks local and custom servers what they offer (GET /v1/models)' },
      JSON_OUT,
      CONFIG,
    ],
  },
  doctor: {
    usage: ['doctor [--json] [--cwd DIR] [--config FILE]'],
    summary: 'check config, directories, store, sandbox, ripgrep, the daemon, and reach each provider (its model list: no tokens spent)',
    options: [JSON_OUT, CWD, CONFIG],
  },
  status: {
    usage: ['status [--json]'],
    summary: 'whether the daemon runs: its pid, socket, uptime, clients, sessions and where it logs',
    details: ['Exit codes: 0 running, 3 not running (as systemctl status).'],
    options: [JSON_OUT],
  },
  dashboard: {
    usage: ['dashboard [--no-open] [--socket PATH] [--config FILE]'],
    summary: 'print a one-time login address for the web dashboard and open it in a browser (starts the daemon when none runs)',
    details: [
      'Prints "dashboard: http://HOST:PORT/login?token=…" on stdout; the address works once, within 10 minutes.',
      'The daemon serves HTTP on server.http, or on 127.0.0.1 with a free port when that is unset.',
      'A browser is opened (xdg-open, open) only when stdout is a terminal and, on Linux, there is a display.',
    ],
    options: [
      { flag: '--no-open', help: 'print the address only' },
      { flag: '--socket', value: 'PATH', help: "the daemon's socket (default: the data directory's)" },
      CONFIG,
    ],
  },
  stop: {
    usage: ['stop [--timeout-ms N]'],
    summary: 'stop the running daemon gracefully (SIGTERM to its pid) and wait until it has exited',
    details: ['Running turns are stopped and their partial answers stored. With no daemon running it says so and exits 0.'],
    options: [{ flag: '--timeout-ms', value: 'N', help: 'give up waiting after N milliseconds (default 30000)' }],
  },
  logs: {
    usage: ['logs [-f]'],
    summary: "print the daemon's log file (daemon.log, where a daemon started on demand writes)",
    details: ['A daemon started by agentd serve logs to its stderr instead; logs says so.'],
    options: [{ flag: '--follow', help: 'then print what is appended, like tail -f, until Ctrl-C (-f)' }],
  },
  login: {
    usage: ['login copilot [--github-url URL]'],
    summary: "log in to GitHub Copilot with GitHub's device flow; the login is stored in the state directory (0600)",
    details: [
      'Shows a URL and a code to enter there, waits until you approve, checks the Copilot seat, then stores',
      'the GitHub token as copilot.json in the state directory (agentd doctor shows where); never in config.',
    ],
    options: [{ flag: '--github-url', value: 'URL', help: 'a GitHub Enterprise to log in to (default https://github.com)' }],
    subcommands: ['copilot'],
  },
  permissions: {
    usage: ['permissions list [--cwd DIR] [--json]', 'permissions revoke RULE|--all [--cwd DIR]'],
    summary: 'the "always" answers remembered for a project: list them, or forget one or all',
    options: [CWD, JSON_OUT, { flag: '--all', help: 'with revoke: forget every remembered answer of the project' }],
    subcommands: ['list', 'revoke'],
  },
  help: {
    usage: ['help [COMMAND]'],
    summary: 'this help, or one command\'s',
    options: [],
  },
  completion: {
    usage: ['completion bash|zsh|fish'],
    summary: 'print a shell completion script (e.g. agentd completion bash > ~/.local/share/bash-completion/completions/agentd)',
    options: [],
    subcommands: ['bash', 'zsh', 'fish'],
  },
};

/** One command's help, as `agentd COMMAND --help` prints it. */
export function renderCommandHelp(name: string): string {
  const help = COMMAND_HELP[name]!;
  const lines = [...help.usage.map((usage, i) => `${i === 0 ? 'Usage:' : '      '} agentd ${usage}`), '', help.summary];
  if (help.details) lines.push(...help.details);
  const rows = [...help.options.map((o) => [`${o.flag}${o.value ? ` ${o.value}` : ''}`, o.help] as const), ['-h, --help', 'this help'] as const];
  const width = Math.max(...rows.map(([left]) => left.length));
  lines.push('', 'Options:', ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`));
  return lines.join('\n');
}

/** The overview `agentd --help` prints. */
export function renderOverview(version: string): string {
  const names = Object.keys(COMMAND_HELP);
  const pad = Math.max(...names.map((n) => n.length));
  return [
    `agentd ${version} — an agent runtime for editors and scripts`,
    '',
    'Usage: agentd [COMMAND] [OPTIONS]   (no command: agentd serve --stdio)',
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(pad)}  ${COMMAND_HELP[name]!.summary}`),
    '',
    "Run 'agentd help COMMAND' or 'agentd COMMAND --help' for a command's options.",
    'One daemon owns a data directory at a time; the others connect to it or say which pid to stop.',
  ].join('\n');
}
