import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { jsonForTerminal, showControlCharacters } from '../../config/show-control-characters.js';
import {
  listRememberedPermissions,
  permissionsStoreDir,
  revokeRememberedPermission,
} from '../../tools/permissions/manage-remembered-permissions.js';

const USAGE = `Usage:
  agentd permissions list [--cwd DIR] [--json]      the "always" answers remembered for a project
  agentd permissions revoke RULE [--cwd DIR]        forget one (the rule exactly as listed)
  agentd permissions revoke --all [--cwd DIR]       forget every answer remembered for the project
DIR is the project (session working directory); the current directory when omitted.`;

/** `agentd permissions list|revoke`: show and forget remembered permission answers. */
export async function permissionsCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action !== 'list' && action !== 'revoke') {
    const problem = action === undefined ? 'missing action' : `unknown action "${action}"`;
    process.stderr.write(`agentd permissions: ${problem}; use list or revoke\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: { cwd: { type: 'string' }, json: { type: 'boolean' }, all: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const cwd = resolve(values.cwd ?? process.cwd());
  const storeDir = permissionsStoreDir(resolveAgentdPaths(process.env).dataDir);
  if (action === 'list') {
    if (positionals.length > 0 || values.all) return usage('list takes no rule and no --all');
    const rules = await listRememberedPermissions(cwd, storeDir);
    // A remembered rule quotes a model-written command or path: one line each, every control shown.
    if (values.json) process.stdout.write(`${jsonForTerminal({ project: cwd, rules })}\n`);
    else if (rules.length === 0) process.stdout.write(`No remembered answers for ${showControlCharacters(cwd)}.\n`);
    else for (const r of rules) process.stdout.write(`${r.effect === 'allow' ? 'always allow ' : 'always reject'}  ${showControlCharacters(`${r.rule}  (${r.covers})`)}\n`);
    return 0;
  }
  if (values.json) return usage('revoke takes no --json');
  if (values.all ? positionals.length > 0 : positionals.length !== 1) return usage('revoke takes one RULE or --all');
  const removed = await revokeRememberedPermission(cwd, storeDir, values.all ? { all: true } : (positionals[0] as string));
  process.stdout.write(removed.length === 0 ? `No remembered answers for ${showControlCharacters(cwd)}.\n` : removed.map((r) => `revoked ${showControlCharacters(r)}\n`).join(''));
  return 0;
}

function usage(problem: string): number {
  process.stderr.write(`agentd permissions: ${problem}\n\n${USAGE}\n`);
  return 2;
}
