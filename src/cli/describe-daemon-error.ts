import { closestMatch } from '../config/closest-match.js';

/**
 * The daemon answers in protocol terms, for editors and SDKs ("invalid params for
 * session/set_mode: modeId: …", "list sessions with session/list"). The CLI says the same
 * in its own terms: the flag that carried the value and the command to run. Messages
 * that name no protocol method pass through unchanged.
 */
export function inCliTerms(error: { message: string; data?: unknown }): string {
  const invalid = /^invalid params for (\S+): ([\s\S]*)$/.exec(error.message);
  const message = invalid ? invalidParams(invalid[1]!, issuesOf(error.data) ?? [invalid[2]!]) : error.message;
  return message
    .replace('list sessions with session/list', 'list them with agentd sessions')
    .replace('list schedules with schedules/list (agentd schedules list)', 'list them with agentd schedules list');
}

/** Which flag of `agentd run` (and `schedules add`) carried each method's parameter. */
const FLAGS: Record<string, { param: string; flag: string }> = {
  'session/set_mode': { param: 'modeId', flag: '--agent' },
  'session/set_config_option': { param: 'value', flag: '--model' },
  'session/new': { param: 'cwd', flag: '--cwd' },
  'session/load': { param: 'cwd', flag: '--cwd' },
  'session/list': { param: 'cwd', flag: '--cwd' },
};

function invalidParams(method: string, issues: string[]): string {
  const flag = FLAGS[method];
  return issues
    .map((issue) => {
      if (flag === undefined || !issue.startsWith(`${flag.param}: `)) return issue;
      const detail = issue.slice(flag.param.length + 2);
      return `${flag.flag}: ${flag.flag === '--agent' ? agentChoice(detail) : detail}`;
    })
    .join('; ');
}

/** `unknown mode "bulid"; available: build, plan` → an agent, with the nearest name. */
function agentChoice(detail: string): string {
  const unknown = /^unknown mode "([^"]*)"; available: (.*)$/.exec(detail);
  if (!unknown) return detail;
  const names = unknown[2]!.split(', ');
  const near = closestMatch(unknown[1]!, names);
  return `unknown agent "${unknown[1]}".${near !== undefined ? ` Did you mean "${near}"?` : ''} The agents are ${names.join(', ')}`;
}

function issuesOf(data: unknown): string[] | undefined {
  const issues = (data as { issues?: unknown } | null | undefined)?.issues;
  return Array.isArray(issues) && issues.every((i) => typeof i === 'string') ? issues : undefined;
}
