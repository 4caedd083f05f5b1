import { copilotLoginPath } from '../../src/config/copilot-login.js';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { writePrivateFile } from '../../src/config/write-private-file.js';

/** Store a Copilot login for the GitHub at `githubUrl` as `agentd login copilot` would; returns the file. */
export async function writeCopilotLogin(env: NodeJS.ProcessEnv, githubUrl: string, githubToken = 'ghu_standInToken0123456789'): Promise<string> {
  const file = copilotLoginPath(resolveAgentdPaths(env));
  await writePrivateFile(file, JSON.stringify({ githubToken, githubUrl, savedAt: new Date().toISOString() }) + '\n');
  return file;
}
