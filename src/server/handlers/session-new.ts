import { attachSession } from '../acp/attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { sessionMcpSpecs, startSessionMcp } from './session-mcp.js';
import { sessionConfigOptions, sessionModes } from '../acp/session-choices.js';
import { tellStandingProblems } from '../acp/tell-standing-problems.js';
import { requireDirectory } from './require-directory.js';
import { requireServedFolder } from './require-served-folder.js';
import { warmPromptPath } from './warm-prompt-path.js';

/** Creates a session rooted at an existing absolute cwd this daemon serves (`cluster.roots`), starts its MCP servers (without waiting), follows it, and warms it up once answered. */
export const sessionNew: RequestHandler<'session/new'> = async (params, { client, daemon }) => {
  requireDirectory('session/new', 'cwd', params.cwd);
  await requireServedFolder('session/new', daemon, params.cwd);
  const additional = params.additionalDirectories ?? [];
  additional.forEach((dir, i) => requireDirectory('session/new', `additionalDirectories[${i}]`, dir));
  const mcpServers = sessionMcpSpecs('session/new', params.mcpServers, params.cwd);
  // Answered after the row exists: the id it gives is loadable at once.
  const session = await daemon.sessions.create({ cwd: params.cwd, additionalDirectories: additional });
  const mcp = startSessionMcp(daemon, session, mcpServers);
  attachSession(client, session);
  const sandbox = await session.project.sandbox;
  const modes = sessionModes(session);
  // After the agents were read for the modes: their files' errors are among the problems.
  const problems = tellStandingProblems(daemon, session);
  // After this answer is written: the first prompt then finds its path warm.
  warmPromptPath(session);
  return {
    sessionId: session.id,
    modes,
    configOptions: sessionConfigOptions(session),
    // Which mode bash runs in: bubblewrap, or none (then each command asks permission).
    // MCP servers as they stand now: they start in the background.
    _meta: { agentd: { sandbox: { mode: sandbox.mode, ...(sandbox.reason ? { reason: sandbox.reason } : {}) }, mcpServers: mcp, ...(problems.length > 0 ? { problems } : {}) } },
  };
};
