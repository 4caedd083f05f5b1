/**
 * Where a slow MCP server's startup limit is raised, for the messages saying it took too
 * long. Kept apart from the connection so that saying it never loads the MCP SDK.
 */
export const STARTUP_LIMIT_HINT =
  'its "startupTimeoutMs" under "mcpServers" in config.json (or "tools.mcpStartupTimeoutMs", the limit of every server, which is the one for servers your editor gives)';
