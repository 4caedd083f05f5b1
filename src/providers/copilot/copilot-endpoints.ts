/**
 * GitHub Copilot's endpoints and the identity a client presents. GitHub documents no public
 * Copilot chat API; what is here is what the open-source Copilot clients send, cited:
 *
 * - The device flow is GitHub's own, documented at
 *   https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#device-flow
 *   (`POST /login/device/code`, `POST /login/oauth/access_token`).
 * - The client id `Iv1.b507a08c87ecfe98` with scope `read:user` is the Copilot app's, used for
 *   the device flow by ericc-ch/copilot-api
 *   (https://github.com/ericc-ch/copilot-api/blob/HEAD/src/lib/api-config.ts) and Roo Code
 *   (https://github.com/RooVetGit/Roo-Code/blob/HEAD/packages/types/src/providers/copilot.ts).
 * - The exchange `GET https://api.github.com/copilot_internal/v2/token` with
 *   `Authorization: token <oauth token>`, answering `token` and `expires_at` (Unix seconds),
 *   https://github.com/zed-industries/zed/blob/HEAD/crates/copilot/src/copilot_chat.rs, and
 *   `refresh_in` (seconds),
 *   https://github.com/ericc-ch/copilot-api/blob/HEAD/src/services/github/get-copilot-token.ts.
 *   `endpoints.api` names the seat's API root (`api.individual.`, `api.business.` or
 *   `api.enterprise.githubcopilot.com`, the hosts copilot-api's api-config.ts builds per account
 *   type); it is used when present.
 * - Chat at `<api root>/chat/completions` (OpenAI Chat Completions, SSE) and models at
 *   `<api root>/models` (`{data:[{id, capabilities:{type}, …}]}`), with the headers below:
 *   copilot-api's api-config.ts and get-models.ts
 *   (https://github.com/ericc-ch/copilot-api/blob/HEAD/src/services/copilot/get-models.ts) and
 *   zed's copilot_chat.rs, which both send `Copilot-Integration-Id: vscode-chat` and an
 *   `Editor-Version`.
 */

/** The Copilot app's OAuth client id (see above). */
export const COPILOT_CLIENT_ID = 'Iv1.b507a08c87ecfe98';

/** The scope the Copilot clients ask for; the exchange needs no more. */
export const COPILOT_SCOPE = 'read:user';

/** github.com, where `agentd login copilot` goes unless told another GitHub. */
export const DEFAULT_GITHUB_URL = 'https://github.com';

/** Where chat goes when the token names no endpoint (the default of the clients above). */
export const DEFAULT_COPILOT_API_URL = 'https://api.githubcopilot.com';

/**
 * The REST API root of a GitHub: `https://api.github.com` for github.com, `https://api.<host>`
 * for GitHub Enterprise Cloud with data residency (`*.ghe.com`), and `<url>/api/v3` for
 * GitHub Enterprise Server (https://docs.github.com/en/enterprise-server@latest/rest/quickstart).
 */
export function githubApiUrl(githubUrl: string): string {
  const url = new URL(githubUrl);
  if (url.hostname === 'github.com') return 'https://api.github.com';
  if (url.hostname.endsWith('.ghe.com')) return `${url.protocol}//api.${url.host}`;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/api/v3`;
}

/** The identity headers Copilot's API requires of a client (the clients cited above send these). */
export const COPILOT_CLIENT_HEADERS: Readonly<Record<string, string>> = {
  'editor-version': 'vscode/1.99.3',
  'editor-plugin-version': 'copilot-chat/0.26.7',
  'copilot-integration-id': 'vscode-chat',
  'user-agent': 'GitHubCopilotChat/0.26.7',
  'openai-intent': 'conversation-panel',
};
