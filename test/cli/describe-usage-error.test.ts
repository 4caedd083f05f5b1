import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

/** A mistyped command line gets one line in CLI terms, the nearest real word, and exit 2. */
describe('agentd on a mistyped command line', () => {
  let home: ReturnType<typeof makeHome>;
  beforeAll(() => {
    home = makeHome();
  });
  afterAll(() => home.cleanup());

  it.each([
    [['sesions'], "agentd: unknown command 'sesions'. Did you mean 'sessions'? Run 'agentd --help' for the commands."],
    [['frobnicate'], "agentd: unknown command 'frobnicate'. Run 'agentd --help' for the commands."],
    [['sessions', 'lsit'], "agentd sessions: unknown action 'lsit'. Did you mean 'list'? Run 'agentd sessions --help' for its usage."],
    [['models', '--confgured'], "agentd models: unknown option '--confgured'. Did you mean '--configured'? Run 'agentd models --help' for its options."],
    [
      ['run', '--modle', 'local/tiny', 'hi'],
      "agentd run: unknown option '--modle'. Did you mean '--model'? Run 'agentd run --help' for its options. A prompt that starts with '-' goes after '--': agentd run -- \"--modle …\".",
    ],
    [['models', '--provider'], "agentd models: --provider needs a value (--provider ID). Run 'agentd models --help' for its options."],
    [['doctor', '--json=yes'], "agentd doctor: --json takes no value; give it alone. Run 'agentd doctor --help' for its options."],
    [['sessions', 'list', 'extra'], "agentd sessions: unexpected argument 'extra'. Run 'agentd sessions --help' for its options."],
  ])('agentd %j', async (args, message) => {
    const result = await runCli(args, daemonEnv(home.home));
    expect(result).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
  });
});
