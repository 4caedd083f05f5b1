import { COMMAND_HELP, renderCommandHelp, renderOverview } from './command-help.js';
import { mistypedActionMessage, unknownCommandMessage } from './describe-usage-error.js';
import { exitQuietlyWhenOutputCloses } from './exit-quietly-when-output-closes.js';
import { packageVersion } from './package-version.js';
import { reportCommandFailure, reportUsageError as usageError } from './report-cli-failure.js';

type Command = (args: string[]) => Promise<number>;

/** Each command is loaded only when run, so `agentd acp` never pays for the daemon's modules. */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  acp: async () => (await import('./commands/acp.js')).acpCommand,
  run: async () => (await import('./commands/run.js')).runCommand,
  sessions: async () => (await import('./commands/sessions.js')).sessionsCommand,
  schedules: async () => (await import('./commands/schedules.js')).schedulesCommand,
  models: async () => (await import('./commands/models.js')).modelsCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
  permissions: async () => (await import('./commands/permissions.js')).permissionsCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  dashboard: async () => (await import('./commands/dashboard.js')).dashboardCommand,
  stop: async () => (await import('./commands/stop.js')).stopCommand,
  logs: async () => (await import('./commands/logs.js')).logsCommand,
  login: async () => (await import('./commands/login.js')).loginCommand,
  completion: async () => async (args) => {
    process.stdout.write((await import('./shell-completion.js')).shellCompletion(args[0] ?? ''));
    return 0;
  },
};

/** `--help` or `-h` among a command's own arguments (not after `--`, where it is a prompt's text). */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  // A daemon's transport owns its stdout; every other command ends quietly when its reader goes.
  if (first !== undefined && !first.startsWith('-') && first !== 'serve' && first !== 'acp') exitQuietlyWhenOutputCloses();
  if (first === '--version' || first === '-v') {
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  if (first === '--help' || first === '-h' || (first === 'help' && rest.length === 0)) {
    process.stdout.write(renderOverview(packageVersion()) + '\n');
    return 0;
  }
  if (first === 'help') return printCommandHelp(asksForHelp(rest) ? 'help' : rest[0]!);
  if (first === undefined || first.startsWith('-')) return (await commands.serve!())(argv);
  const load = commands[first];
  if (!load) return usageError(unknownCommandMessage(first));
  if (asksForHelp(rest)) return printCommandHelp(first);
  const mistyped = mistypedActionMessage(first, rest[0]);
  if (mistyped !== undefined) return usageError(mistyped);
  try {
    return await (await load())(rest);
  } catch (error) {
    return reportCommandFailure(first, error);
  }
}

function printCommandHelp(name: string): number {
  if (!COMMAND_HELP[name]) {
    process.stderr.write(`agentd help: unknown command "${name}"; the commands are ${Object.keys(COMMAND_HELP).join(', ')}\n`);
    return 2;
  }
  process.stdout.write(renderCommandHelp(name) + '\n');
  return 0;
}

/** Runs one `agentd` command line to its end; its exit status becomes the process's. */
export function runCommandLine(argv: string[]): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.exitCode = reportCommandFailure(undefined, error);
    },
  );
}
