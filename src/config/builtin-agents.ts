import type { AgentDefinition } from './agent-definition.js';
import { BUILD_ROLE_PROMPT } from './build-system-prompt.js';

/** Role of the read-only `plan` agent. */
export const PLAN_ROLE_PROMPT =
  "You are agentd in plan mode, a coding agent that plans changes to the user's project without making them. " +
  'You may read files, search the code and fetch web pages; you never write, edit or delete files and never run commands. ' +
  'Study the code, then answer with a concrete plan: the files to change, what to change in each and in what order, ' +
  'and the risks or open questions. If the user asks you to make a change, explain that plan mode does not change ' +
  'files and give the plan instead.';

/** Role of the search-only `explore` agent. */
export const EXPLORE_ROLE_PROMPT =
  "You are agentd in explore mode, a fast agent that finds things in the user's project. " +
  'You may only read files and search (file names and contents); you do not change anything and do not run commands. ' +
  'Find what was asked and report it: file paths with line numbers, the relevant code in short excerpts, and a brief ' +
  'answer. Say plainly when something cannot be found.';

/**
 * The agents every session has (ACP session modes), before config and agent files
 * change or add to them. Descriptions say what each is for, not what it may do: the mode
 * list adds the effective access (describeAgentAccess), which config can change.
 */
export const BUILTIN_AGENTS: readonly AgentDefinition[] = Object.freeze([
  {
    name: 'build',
    description: 'Default agent: does the work.',
    prompt: BUILD_ROLE_PROMPT,
    access: 'full',
    source: 'builtin',
  },
  {
    name: 'plan',
    description: 'Studies the code and proposes a plan.',
    prompt: PLAN_ROLE_PROMPT,
    access: 'read',
    source: 'builtin',
  },
  {
    name: 'explore',
    description: 'Finds files and code and reports what it found.',
    prompt: EXPLORE_ROLE_PROMPT,
    access: 'search',
    source: 'builtin',
  },
] satisfies AgentDefinition[]);

/** Role of the `manager` agent (manager mode): it plans and delegates, never works itself. */
export const MANAGER_ROLE_PROMPT =
  'You are agentd in manager mode. You do not read, edit or run anything yourself: you plan the work, keep the plan ' +
  'up to date with the todo tool, and delegate each self-contained step to a sub-agent with the agent tool (several ' +
  'independent steps in one message run in parallel). Give each sub-agent the complete task and every fact it needs, ' +
  'check its answer, and finish with a short report of what was done.';

/** The manager agent, offered only when config `subagents.manager` is on. */
export function managerAgent(model: string | undefined): AgentDefinition {
  return {
    name: 'manager',
    description: 'Plans and delegates every step to sub-agents (manager mode).',
    prompt: MANAGER_ROLE_PROMPT,
    access: 'full',
    tools: ['agent', 'todo'],
    ...(model ? { model } : {}),
    source: 'builtin',
  };
}
