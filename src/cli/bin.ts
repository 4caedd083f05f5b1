#!/usr/bin/env node
/**
 * The `agentd` bin, bundled as one CommonJS file (scripts/bundle-cli.mjs). Editors start
 * `agentd acp` for every chat and wait for its first answer, so that command goes straight
 * to the bridge: no argument table, help text, other command or ES module loader on its
 * way (a CommonJS entry starts ~5 ms sooner than an ES module one). Every other command
 * line goes to the full CLI, main.js.
 */
const [command, ...args] = process.argv.slice(2);

if (command === 'acp' && !args.includes('--help') && !args.includes('-h')) {
  import('./commands/acp.js')
    .then(({ acpCommand }) => acpCommand(args))
    .then(
      (code) => {
        process.exitCode = code;
      },
      async (error: unknown) => {
        const { reportCommandFailure } = await import('./report-cli-failure.js');
        process.exitCode = reportCommandFailure('acp', error);
      },
    );
} else {
  void import('./main.js');
}
