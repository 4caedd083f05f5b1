import { parseArgs } from 'node:util';
import { connectAgentdClient } from '../../../clients/typescript/src/index.js';
import type { DashboardLoginResponse } from '../../../protocol/index.js';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { chooseBrowserOpener } from '../dashboard/choose-browser-opener.js';
import { openInBrowser } from '../dashboard/open-in-browser.js';
import { findOrStartDaemon } from '../daemon/find-or-start-daemon.js';
import { packageVersion } from '../package-version.js';

/**
 * `agentd dashboard`: finds the shared daemon as `agentd acp` does (starting it when none
 * runs), asks it for a login address (`dashboard/login`, which starts HTTP on `server.http`
 * when it serves none), prints it on stdout as `dashboard: URL`, opens a browser there unless
 * told or unable not to (chooseBrowserOpener), and exits.
 */
export async function dashboardCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { 'no-open': { type: 'boolean' }, socket: { type: 'string' }, config: { type: 'string' } },
    strict: true,
  });
  const socketPath = await findOrStartDaemon(resolveAgentdPaths(process.env), {
    ...(values.socket ? { socket: values.socket } : {}),
    ...(values.config ? { config: values.config } : {}),
  });
  const client = await connectAgentdClient(socketPath);
  let login: DashboardLoginResponse;
  try {
    await client.initialize({ protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'agentd dashboard', version: packageVersion() } });
    login = await client.dashboardLogin({});
  } finally {
    client.close();
  }
  process.stdout.write(`dashboard: ${login.url}\n`);
  const opener = chooseBrowserOpener({ noOpen: values['no-open'] === true, isTty: process.stdout.isTTY === true, platform: process.platform, env: process.env });
  const problem = opener.kind === 'open' ? await openInBrowser(opener.command, login.url) : opener.reason;
  if (problem) process.stderr.write(`agentd dashboard: ${problem}\n`);
  return 0;
}
