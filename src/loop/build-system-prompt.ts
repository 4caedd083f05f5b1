import type { SystemBlock } from '../providers/request.js';

export interface SystemPromptInput {
  /** The agent role prompt (build, plan, explore or a user agent). */
  rolePrompt: string;
  /** Project and user AGENTS.md texts, outermost first. */
  agentsFiles?: Array<{ path: string; text: string }>;
  cwd: string;
  /** Injected for tests; defaults to now. */
  now?: Date;
  platform?: string;
}

/** The default role of the `build` agent. */
export const BUILD_ROLE_PROMPT =
  'You are agentd, a coding agent working in the user\'s project on their machine. ' +
  'Answer precisely and briefly. When you change files, say what you changed.';

/**
 * Stable blocks first (role, AGENTS.md), then the cache boundary, then facts that
 * change between sessions, so the provider's prompt cache keeps the stable prefix.
 */
export function buildSystemPrompt(input: SystemPromptInput): SystemBlock[] {
  const stable: SystemBlock[] = [{ text: input.rolePrompt }];
  for (const file of input.agentsFiles ?? []) {
    stable.push({ text: `Instructions from ${file.path}:\n${file.text}` });
  }
  stable[stable.length - 1]!.cacheBoundary = true;
  const now = input.now ?? new Date();
  const facts = [
    `Working directory: ${input.cwd}`,
    `Date: ${now.toISOString().slice(0, 10)}`,
    `Platform: ${input.platform ?? process.platform}`,
  ];
  return [...stable, { text: facts.join('\n') }];
}
