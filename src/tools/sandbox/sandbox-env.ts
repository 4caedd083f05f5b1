/**
 * The environment commands get: an allowlist, never the daemon's environment minus a
 * denylist (a key in `WORK_KEY` or a token in `DATABASE_URL` has no telltale name).
 *
 * The core set, each because ordinary programs need it:
 * - PATH: programs are found where the user's own shell finds them;
 * - HOME: tools find their settings and caches (~/.gitconfig, ~/.cache, ~/.npm);
 * - USER, LOGNAME: the user's name, asked by git (fallback identity), ssh, ps, whoami-less scripts;
 * - SHELL: programs that start the user's shell (make's $SHELL, editors, `script`);
 * - LANG, LANGUAGE, LC_*: text encoding and messages, so UTF-8 output is not mangled;
 * - TERM: terminal capabilities (bash, less, tput complain or misbehave without it);
 * - TZ: dates in the user's time zone.
 * Left out on purpose: TMPDIR (inside the sandbox only the private /tmp exists),
 * XDG_RUNTIME_DIR and SSH_AUTH_SOCK (hidden sockets), DISPLAY, proxies (a proxy URL can
 * carry a password) and AGENTD_*. `sandbox.env` adds more.
 */
export const CORE_ENV_NAMES: readonly string[] = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_*', 'TERM', 'TZ'];

/** Which variables pass into a command. */
export interface EnvPolicy {
  /** Names, or prefixes ending in `*` (`LC_*`), that pass through with the daemon's value. */
  allow: readonly string[];
  /** Names that never pass, even when `allow` matches them: every provider's key variable. */
  block: ReadonlySet<string>;
}

/** A policy from the core set plus `sandbox.env`, and one warning per blocked entry the user listed. */
export function buildEnvPolicy(extra: readonly string[], block: ReadonlySet<string>): { policy: EnvPolicy; warnings: string[] } {
  const warnings: string[] = [];
  for (const entry of extra) {
    const hits = [...block].filter((name) => matchesEnvPattern(name, entry)).sort();
    if (hits.length > 0) {
      warnings.push(
        `sandbox.env lists "${entry}", but ${hits.join(', ')} hold${hits.length === 1 ? 's' : ''} a provider API key and never pass` +
          ' into the sandbox; remove it from sandbox.env (a command that needs a key should get its own, not agentd\'s)',
      );
    }
  }
  return { policy: { allow: [...CORE_ENV_NAMES, ...extra], block }, warnings };
}

/** The allowed part of `env`. */
export function sandboxEnv(env: NodeJS.ProcessEnv, policy: EnvPolicy): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || policy.block.has(name)) continue;
    if (policy.allow.some((pattern) => matchesEnvPattern(name, pattern))) out[name] = value;
  }
  return out;
}

/** `NAME` matches itself; `PREFIX*` matches every name starting with PREFIX. Case-sensitive, like the environment. */
export function matchesEnvPattern(name: string, pattern: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}
