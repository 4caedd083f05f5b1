import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AgentDefinition } from './agent-definition.js';
import { formatConfigProblem } from './config-error.js';
import { AgentConfigSchema, type AgentConfig, type AgentdConfig } from './config-schema.js';
import { describeConfigIssues } from './describe-config-issues.js';
import { formatJsonPath } from '../../protocol/index.js';
import { FrontMatterError, parseFrontMatter } from './parse-front-matter.js';
import { FILE_CAPS, readRepositoryFile } from './read-repository-file.js';
import { projectBoundaries } from './repository-root.js';

export type { AgentAccess, AgentDefinition } from './agent-definition.js';

export interface LoadAgentsOptions {
  /** The session's directory; `<cwd>/.agentd/agents/*.md` are the project's agents. */
  cwd: string;
  /** The user's config directory; `<userConfigDir>/agents/*.md` are the user's agents. */
  userConfigDir: string;
  /** The user's config; its `agents` entries apply after the built-ins. */
  config: Pick<AgentdConfig, 'agents'>;
  /** The project file's (`<cwd>/.agentd/config.json`) `agents`, applied after the user's agent files. */
  projectConfig?: Pick<AgentdConfig, 'agents'>;
  /**
   * Whether the user trusts the project. An untrusted project may add agents but not
   * redefine a built-in or user agent: it could turn read-only `plan` into full access.
   */
  trusted: boolean;
  /**
   * The built-in agents: BUILTIN_AGENTS from ./builtin-agents.ts, with the manager agent
   * when the config enables it (the caller decides).
   */
  builtins: readonly AgentDefinition[];
}

export interface LoadedAgents {
  /** Every agent, built-ins first, in the order each name was first defined. */
  agents: AgentDefinition[];
  /** One line per skipped definition, naming the file (or config key), the field and the fix. */
  errors: string[];
}

/** Agent names: mode ids and file names, so letters, digits, `.`, `-`, `_`. */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Front matter of an agent file: the config's agent fields, except that the prompt is
 * the body. `name` may be written for compatibility with other tools' agent files but
 * must match the file name. `tools` may also be a comma-separated string.
 */
const AgentFileSchema = AgentConfigSchema.omit({ prompt: true }).extend({
  name: z.string().optional(),
  tools: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((tool) => tool.trim()).filter((tool) => tool !== '') : value),
    z.array(z.string().min(1)),
  ).optional(),
});

/**
 * All agents of a session, in precedence order: the built-ins, then the user's
 * config.json `agents`, then `<userConfigDir>/agents/*.md`, then the project's
 * `.agentd/config.json` `agents`, then `<cwd>/.agentd/agents/*.md`. A later definition
 * of a name changes only the fields it sets (a config entry `{"plan": {"model": "…"}}`
 * keeps plan's prompt); a new name must give a description and a prompt, and gets `full`
 * access unless it says otherwise (the mode list shows every agent's access). An
 * untrusted project's definition of a built-in or user agent name is skipped with an
 * error. A broken definition is skipped with an error and the others still load.
 * Synchronous, like loadConfig.
 */
export function loadAgents(options: LoadAgentsOptions): LoadedAgents {
  const byName = new Map<string, AgentDefinition>();
  const errors: string[] = [];
  for (const builtin of options.builtins) byName.set(builtin.name, { ...builtin });
  readConfigAgents(options.config, 'config.json', byName, errors);
  for (const file of listAgentFiles(path.join(options.userConfigDir, 'agents'), errors)) readInto(file, undefined, byName, errors);

  // Names the user's side defines: an untrusted project may not take them over.
  const reserved = new Map([...byName.values()].map((agent) => [agent.name, agent.source]));
  const projectRoot = path.resolve(options.cwd);
  const shadows = (name: string, where: string): boolean => {
    const source = reserved.get(name);
    if (options.trusted || source === undefined) return false;
    const owner = source === 'builtin' ? 'built-in' : source === 'config' ? 'your config.json' : source;
    errors.push(formatConfigProblem({
      file: where,
      message:
        `ignored: an untrusted project may not redefine the "${name}" agent (defined by ${owner}); ` +
        `rename the project's agent, or add "${projectRoot}" to trustedProjects in your user config.json`,
    }));
    return true;
  };
  const projectConfigFile = path.join(projectRoot, '.agentd', 'config.json');
  const projectAgents = Object.fromEntries(Object.entries(options.projectConfig?.agents ?? {}).filter(([name]) => !shadows(name, `${projectConfigFile} (agents.${name})`)));
  readConfigAgents({ agents: projectAgents }, projectConfigFile, byName, errors);
  // A project's agent files must stay inside its repository: a link to ../elsewhere would be read into the prompt.
  const boundary = projectBoundaries(projectRoot);
  for (const file of listAgentFiles(path.join(projectRoot, '.agentd', 'agents'), errors)) {
    if (!shadows(path.basename(file, '.md'), file)) readInto(file, boundary, byName, errors);
  }
  return { agents: [...byName.values()], errors };
}

/** Applies config.json `agents` entries (the user's, or a project file's). */
function readConfigAgents(config: Pick<AgentdConfig, 'agents'>, file: string, byName: Map<string, AgentDefinition>, errors: string[]): void {
  for (const [name, entry] of Object.entries(config.agents ?? {})) {
    if (!AGENT_NAME.test(name)) {
      const message = `agent names use letters, digits, ".", "-" and "_" (at most 64), starting with a letter or digit; rename "${name}"`;
      errors.push(formatConfigProblem({ file, path: formatJsonPath(['agents', name]), message }));
      continue;
    }
    const { prompt, ...fields } = entry;
    const merged = mergeAgent(byName.get(name), name, fields, prompt, file === 'config.json' ? 'config' : file);
    if ('field' in merged) {
      errors.push(formatConfigProblem({ file, path: formatJsonPath(['agents', name, merged.field]), message: merged.message }));
    } else byName.set(name, merged);
  }
}

function readInto(file: string, root: readonly string[] | undefined, byName: Map<string, AgentDefinition>, errors: string[]): void {
  const result = readAgentFile(file, root, byName);
  if (Array.isArray(result)) errors.push(...result);
  else byName.set(result.name, result);
}

/** Parses and merges one `<name>.md`; an array holds its error lines. */
function readAgentFile(file: string, root: readonly string[] | undefined, byName: Map<string, AgentDefinition>): AgentDefinition | string[] {
  const name = path.basename(file, '.md');
  if (!AGENT_NAME.test(name)) {
    return [formatConfigProblem({
      file,
      message: 'the file name is the agent name: use letters, digits, ".", "-" and "_" (at most 64), starting with a letter or digit',
    })];
  }
  const read = readRepositoryFile(file, { root, cap: FILE_CAPS.prompt, overCap: 'refuse' });
  if (read.kind === 'missing') return [formatConfigProblem({ file, message: 'disappeared while agents were loaded, or is a link to nothing; restore or remove it' })];
  if (read.kind === 'refused') return [formatConfigProblem({ file, message: `${read.message}; the agent is skipped` })];
  const text = read.text;
  let document;
  try {
    document = parseFrontMatter(text);
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    return [formatConfigProblem({ file, message: error.message, ...(error.line !== undefined ? { line: error.line, column: error.column ?? 1 } : {}) })];
  }
  const parsed = AgentFileSchema.safeParse(document.fields);
  if (!parsed.success) {
    return describeConfigIssues(parsed.error.issues, document.fields, AgentFileSchema)
      .map((issue) => formatConfigProblem({ file, path: issue.path, message: issue.message }));
  }
  const { name: declared, ...fields } = parsed.data;
  if (declared !== undefined && declared !== name) {
    return [formatConfigProblem({ file, path: 'name', message: `"${declared}" differs from the file name "${name}"; rename the file to ${declared}.md or remove the name field` })];
  }
  const merged = mergeAgent(byName.get(name), name, fields, document.body === '' ? undefined : document.body, file);
  if ('field' in merged) {
    // The prompt of a file is its body, which has no JSON path.
    const where = merged.field === 'prompt' ? { message: `the body (the prompt) is ${merged.message}` } : { path: merged.field, message: merged.message };
    return [formatConfigProblem({ file, ...where })];
  }
  return merged;
}

/** A required field a definition lacks. */
interface MissingField {
  field: 'description' | 'prompt';
  message: string;
}

/** Applies the set fields of one definition over the earlier one. */
function mergeAgent(
  earlier: AgentDefinition | undefined,
  name: string,
  fields: Omit<AgentConfig, 'prompt'>,
  prompt: string | undefined,
  source: string,
): AgentDefinition | MissingField {
  const description = fields.description ?? earlier?.description;
  const fullPrompt = prompt ?? earlier?.prompt;
  if (description === undefined || description.trim() === '') {
    return { field: 'description', message: 'missing or empty: give the agent a one-line description of what it is for' };
  }
  if (fullPrompt === undefined || fullPrompt.trim() === '') {
    return {
      field: 'prompt',
      message: 'missing or empty: a new agent needs a role prompt (the body of its .md file, or "prompt" in config.json)',
    };
  }
  const merged: AgentDefinition = { ...earlier, name, description, prompt: fullPrompt, access: fields.access ?? earlier?.access ?? 'full', source };
  if (fields.model !== undefined) merged.model = fields.model;
  if (fields.temperature !== undefined) merged.temperature = fields.temperature;
  if (fields.maxTurns !== undefined) merged.maxTurns = fields.maxTurns;
  const tools = fields.tools ?? earlier?.tools;
  if (tools !== undefined) merged.tools = [...tools];
  return merged;
}

/**
 * `*.md` entries of `dir` that are not directories, sorted; a missing directory has none.
 * FIFOs, devices and links are listed too, so that reading them reports what they are.
 */
function listAgentFiles(dir: string, errors: string[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') errors.push(formatConfigProblem({ file: dir, message: `cannot be listed (${code ?? String(error)}); check its permissions` }));
    return [];
  }
  return entries
    .filter((entry) => entry.name.endsWith('.md') && !entry.isDirectory())
    .map((entry) => path.join(dir, entry.name))
    .sort();
}
