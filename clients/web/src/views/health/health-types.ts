import type { ResultOf } from '../../../../../protocol/index.js';

/** `daemon/health`'s answer and its parts, as the health view's tables take them. */
export type Health = ResultOf<'daemon/health'>;
export type ProviderHealth = Health['providers'][number];
export type RecentProviderEvent = Health['recent'][number];
export type McpServerHealth = Health['mcpServers'][number];
export type SandboxHealth = Health['sandbox'];
export type ConfigChange = Health['config'][number];
