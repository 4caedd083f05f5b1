import path from 'node:path';
import { z } from 'zod';
import type { AgentdPaths } from './agentd-paths.js';

/**
 * What `agentd login copilot` stores: the GitHub OAuth token of the device flow and the
 * GitHub it belongs to. It lives in agentd's state directory as `copilot.json`, mode 0600,
 * never in config.json or a repository. The short-lived Copilot API token is not stored:
 * it is exchanged from this one when needed (src/providers/copilot/).
 */
export const CopilotLoginSchema = z.strictObject({
  /** The GitHub OAuth access token (`ghu_…`) the device flow returned. */
  githubToken: z.string().min(1),
  /** The GitHub the token was issued by, e.g. `https://github.com` or a GitHub Enterprise Server URL. */
  githubUrl: z.url({ protocol: /^https?$/ }),
  /** When the login happened (ISO 8601). */
  savedAt: z.string().min(1),
});
export type CopilotLogin = z.infer<typeof CopilotLoginSchema>;

/** `<stateDir>/copilot.json`. */
export function copilotLoginPath(paths: Pick<AgentdPaths, 'stateDir'>): string {
  return path.join(paths.stateDir, 'copilot.json');
}

/** The one line every copilot failure for want of a login says. */
export const COPILOT_NOT_LOGGED_IN = 'copilot: not logged in; run `agentd login copilot`';
