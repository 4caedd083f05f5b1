import path from 'node:path';

/**
 * The folder bash saves one session's full outputs in, `<dataDir>/tool-output/<session>`.
 * It lies inside agentd's hidden data directory, yet the session may read it: the sandbox
 * binds it read-only for that session's commands, and the access policy lets that
 * session's read, grep, glob and ls in, so "full output: …" can be followed up.
 */
export function toolOutputDir(dataDir: string, sessionId: string): string {
  return path.join(dataDir, 'tool-output', safeName(sessionId));
}

/** A name safe as one path segment: letters, digits, `_` and `-`, at most 40 characters. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'call';
}
