/** One block of the system prompt. */
export interface SystemBlock {
  text: string;
  /**
   * True on the last block of the stable prefix (role prompt, tools guidance, AGENTS.md):
   * Anthropic puts `cache_control` here; other vendors cache prefixes on their own.
   */
  cacheBoundary?: boolean;
}

export interface SystemPromptInput {
  /** The agent role prompt (build, plan, explore or a user agent). */
  rolePrompt: string;
  /** Skills the model can load with the skill tool; listed by name and description. */
  skills?: Array<{ name: string; description: string }>;
  /** The user's global AGENTS.md, then the project's from the repository root to cwd (findAgentsFiles). */
  agentsFiles?: Array<{ path: string; text: string }>;
  cwd: string;
  /** Branch and working-tree summary (gitFacts); omitted outside a repository. */
  git?: { branch?: string; status?: string };
  /** Injected for tests; defaults to now. */
  now?: Date;
  platform?: string;
}

/** The default role of the `build` agent. */
export const BUILD_ROLE_PROMPT =
  'You are agentd, a coding agent working in the user\'s project on their machine. ' +
  'Answer precisely and briefly. When you change files, say what you changed.';

/**
 * How to work with the tools, for every agent. Generic on purpose: each tool's own
 * description says what it does, and an agent only gets the tools its access allows.
 */
export const TOOL_GUIDANCE = [
  'How to work:',
  '- Use the dedicated tools to read, list, search and edit files rather than shell commands such as cat, ls, grep, find or sed; use the shell for builds, tests and other commands.',
  '- Read a file before you edit it, and keep edits as small as the change allows.',
  '- Run independent tool calls together in one response.',
  '- Keep answers short: say what you did or found, with file paths, and skip restating the question.',
].join('\n');

/**
 * Stable blocks first (role, tool guidance, skills, AGENTS.md), then the cache boundary,
 * then facts that change between sessions (directory, date, git state), so the
 * provider's prompt cache keeps the stable prefix. Pure: the caller gathers the inputs
 * (findAgentsFiles, gitFacts, discovered skills).
 */
export function buildSystemPrompt(input: SystemPromptInput): SystemBlock[] {
  const stable: SystemBlock[] = [{ text: input.rolePrompt }, { text: TOOL_GUIDANCE }];
  const skills = input.skills ?? [];
  if (skills.length > 0) {
    const lines = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
    stable.push({ text: ['Skills (load one with the skill tool when the task matches its description):', ...lines].join('\n') });
  }
  for (const file of input.agentsFiles ?? []) {
    stable.push({ text: `Instructions from ${file.path}:\n${file.text}` });
  }
  stable[stable.length - 1]!.cacheBoundary = true;
  const now = input.now ?? new Date();
  const facts = [
    `Working directory: ${input.cwd}`,
    `Date: ${localDate(now)}`,
    `Platform: ${input.platform ?? process.platform}`,
  ];
  if (input.git?.branch !== undefined) facts.push(`Git branch: ${input.git.branch}`);
  if (input.git?.status !== undefined) facts.push(`Git status: ${input.git.status}`);
  return [...stable, { text: facts.join('\n') }];
}

/** The user's calendar date (local time, not UTC: late in the evening west of UTC it is still today). */
function localDate(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
