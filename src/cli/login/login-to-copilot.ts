import { copilotLoginPath, type CopilotLogin } from '../../config/copilot-login.js';
import type { AgentdPaths } from '../../config/agentd-paths.js';
import { writePrivateFile } from '../../config/write-private-file.js';
import { exchangeCopilotToken } from '../../providers/copilot/exchange-copilot-token.js';
import { pollDeviceToken, requestDeviceCode } from '../../providers/copilot/github-device-flow.js';

export interface CopilotLoginOptions {
  paths: Pick<AgentdPaths, 'stateDir'>;
  /** The GitHub to log in to (github.com, or a GitHub Enterprise URL). */
  githubUrl: string;
  write: (text: string) => void;
  signal: AbortSignal;
}

/**
 * GitHub's device flow on the terminal: show the URL and code, poll until the user approves,
 * check that the account has a Copilot seat (one token exchange), then store the GitHub
 * token in `<stateDir>/copilot.json` (0600). Returns the file's path; throws one line on failure.
 */
export async function loginToCopilot(options: CopilotLoginOptions): Promise<string> {
  const { githubUrl, write, signal } = options;
  const code = await requestDeviceCode(githubUrl, signal);
  write(`To log in to GitHub Copilot, open ${code.verificationUri} and enter the code ${code.userCode}\n`);
  write('Waiting for you to authorize agentd on GitHub (Ctrl-C to cancel)...\n');
  const githubToken = await pollDeviceToken(githubUrl, code, signal, (interval) => write(`GitHub asked to poll more slowly: every ${interval} s now\n`));
  try {
    await exchangeCopilotToken({ provider: 'copilot', model: 'login', githubUrl, githubToken, signal });
  } catch (error) {
    throw new Error(`agentd login copilot: GitHub authorized the login, but ${error instanceof Error ? error.message.replace(/^copilot: /, '') : String(error)}`);
  }
  const file = copilotLoginPath(options.paths);
  const login: CopilotLogin = { githubToken, githubUrl, savedAt: new Date().toISOString() };
  await writePrivateFile(file, JSON.stringify(login, null, 2) + '\n');
  write(`Logged in to GitHub Copilot. The login is stored in ${file} (mode 0600); use models like copilot/gpt-4.1 (agentd models --configured --provider copilot lists them).\n`);
  return file;
}
