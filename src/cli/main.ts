#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { ConfigError } from '../config/config-error.js';
import { packageVersion } from './package-version.js';

const USAGE = `agentd ${packageVersion()} — an agent runtime for editors and scripts

Usage:
  agentd                               serve one client on stdio (same as: agentd serve --stdio);
                                       bridged to the shared daemon when one owns the data directory
  agentd serve [--stdio] [--socket [PATH]] [--listen HOST:PORT] [--config FILE] [--permission-mode MODE]
  agentd acp [--socket PATH] [--config FILE]
                                       stdio bridge to the shared daemon (starts it when none runs)
  agentd run [--model P/M] [--cwd DIR] [--json] [--config FILE] [--permission-mode MODE] "PROMPT" | -
                                       run one prompt headless and stream the answer to stdout
                                       (in the shared daemon when one owns the data directory)
  agentd sessions [--cwd DIR] [--json] list stored sessions
  agentd models [--provider ID] [--configured] [--json]
                                       the model catalog and configured models, with prices
  agentd doctor [--json]               check config, store, sandbox, ripgrep and providers
  agentd permissions list [--cwd DIR] [--json]
                                       the "always" answers remembered for a project
  agentd permissions revoke RULE|--all [--cwd DIR]
                                       forget one remembered answer, or all of a project's
  agentd --version | --help

MODE is ask (default), acceptEdits, bypass or deny: what happens to tool calls that would ask.
One daemon owns a data directory at a time; the others connect to it or say which pid to stop.`;

type Command = (args: string[]) => Promise<number>;

/** Each command is loaded only when run, so `agentd acp` never pays for the daemon's modules. */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  acp: async () => (await import('./commands/acp.js')).acpCommand,
  run: async () => (await import('./commands/run.js')).runCommand,
  sessions: async () => (await import('./commands/sessions.js')).sessionsCommand,
  models: async () => (await import('./commands/models.js')).modelsCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
  permissions: async () => (await import('./commands/permissions.js')).permissionsCommand,
};

// Start-up allocates a few megabytes of module code and schemas; a larger young
// generation lets that happen without a dozen scavenges before the first answer.
setFlagsFromString('--max-semi-space-size=16');

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (first === undefined || first.startsWith('-')) return (await commands.serve!())(argv);
  const load = commands[first];
  if (!load) {
    process.stderr.write(`agentd: unknown command "${first}"\n\n${USAGE}\n`);
    return 2;
  }
  return (await load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`agentd: ${message}\n`);
    process.exitCode = error instanceof ConfigError ? 78 : 1;
  },
);
