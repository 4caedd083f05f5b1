import type { RedirectHop } from '../web/guarded-fetch.js';
import { ruleUrl } from '../permissions/rule-url.js';
import type { ToolContext } from '../tool.js';
import { ToolError } from '../tool-error.js';

/**
 * The host (and a port other than the scheme's default) a URL is approved for: rules and
 * remembered answers name hosts, so a redirect within one host (`http` to `https`, a
 * trailing slash) needs no new decision, while another host or port does.
 */
function hostKey(url: URL): string {
  return `${ruleUrl(url.href)?.host ?? url.hostname}${url.port === '' ? '' : `:${url.port}`}`;
}

/**
 * What web_fetch checks before following a redirect: a hop to a host (or port) the call
 * was not yet decided for goes through the session's permission gate with the hop's URL,
 * exactly as a first call to that URL would — a deny rule or a remembered "always reject"
 * refuses it, an allow rule or remembered "always allow" lets it through, and otherwise
 * the user is asked, naming the host that redirects. The URL is passed as the request's
 * target (`paths`), so the gate decides it afresh instead of reusing the call's approval.
 */
export function webFetchRedirectGate(
  args: Record<string, unknown>,
  ctx: Pick<ToolContext, 'permission'>,
  firstUrl: string,
): (hop: RedirectHop) => Promise<void> {
  const decided = new Set<string>();
  const first = ruleUrl(firstUrl);
  if (first) decided.add(hostKey(new URL(first.href)));
  return async ({ from, to, status }) => {
    const key = hostKey(to);
    if (decided.has(key)) return;
    const answer = await ctx.permission.check({
      tool: 'web_fetch',
      access: 'network',
      args: { ...args, url: to.href },
      reason: `${hostKey(from)} redirects to ${key} (HTTP ${status}): fetch ${to.href}`,
      paths: [to.href],
    });
    if (answer !== 'allow') {
      throw new ToolError(
        `Did not follow the redirect from ${from.href} to ${to.href}: web_fetch to ${key} is refused by the permission rules, ` +
          'a remembered answer or the user. Fetch another page, or ask the user to allow that host.',
      );
    }
    decided.add(key);
  };
}
