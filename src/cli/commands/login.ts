import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { DEFAULT_GITHUB_URL } from '../../providers/copilot/copilot-endpoints.js';
import { loginToCopilot } from '../login/login-to-copilot.js';

/**
 * `agentd login copilot [--github-url URL]`: log in to GitHub Copilot with GitHub's device
 * flow. The GitHub's URL is a flag rather than config: the token belongs to that GitHub, so
 * it is stored with the token, and the token exchange goes where the login came from.
 */
export async function loginCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { 'github-url': { type: 'string' } }, allowPositionals: true, strict: true });
  const [service, ...extra] = positionals;
  if (service !== 'copilot' || extra.length > 0) {
    process.stderr.write(`agentd login: ${service === undefined ? 'say what to log in to' : `cannot log in to "${[service, ...extra].join(' ')}"`}; the one login is \`agentd login copilot\`\n`);
    return 2;
  }
  const githubUrl = values['github-url'] ?? DEFAULT_GITHUB_URL;
  if (!/^https?:\/\/[^/]/i.test(githubUrl)) {
    process.stderr.write(`agentd login: --github-url "${githubUrl}" is not an http(s) URL; use e.g. https://github.com or https://ghe.example.com\n`);
    return 2;
  }
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  try {
    await loginToCopilot({ paths: resolveAgentdPaths(process.env), githubUrl, write: (text) => void process.stdout.write(text), signal: controller.signal });
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return controller.signal.aborted ? 130 : 1;
  } finally {
    process.off('SIGINT', stop);
  }
}
