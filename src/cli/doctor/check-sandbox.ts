import { describeSandbox, detectSandbox } from '../../tools/sandbox/detect-sandbox.js';
import type { SandboxPolicy } from '../../tools/sandbox/sandbox-policy.js';
import { describeSandboxPolicy } from './describe-sandbox-policy.js';
import { okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

export interface CheckSandboxOptions {
  /** The bwrap binary to probe; `bwrap` on PATH by default (tests point it elsewhere). */
  bwrapPath?: string;
  /** `sandbox.network` from the config: whether sandboxed commands keep the network. */
  allowNetwork?: boolean;
  /** What the daemon's sandbox would hide and pass (buildSandboxPolicy), listed below the mode. */
  policy?: SandboxPolicy;
  /** Problems the policy raised (a provider key in sandbox.env): the check warns with them. */
  policyWarnings?: string[];
  /** The home directory, for `~/` in the listing. */
  home?: string;
}

/**
 * Probes bubblewrap the way the daemon does at start-up (detectSandbox, which runs bwrap
 * with the sandbox's own namespaces around `true`). Without it bash still works, but
 * every command needs explicit permission, hence a warning.
 */
export async function checkSandbox(options: CheckSandboxOptions = {}): Promise<DoctorCheck> {
  const info = await detectSandbox({
    ...(options.bwrapPath !== undefined ? { bwrapPath: options.bwrapPath } : {}),
    // A custom binary must be probed, not answered from the cache of the default one.
    refresh: options.bwrapPath !== undefined,
  });
  const mode = describeSandbox(info);
  const first = info.mode === 'bubblewrap' && options.allowNetwork ? `${mode}; network allowed by config (sandbox.network)` : mode;
  const warnings = options.policyWarnings ?? [];
  const detail = [first, ...(options.policy ? describeSandboxPolicy(options.policy, options.home) : []), ...warnings].join('\n');
  if (info.mode !== 'bubblewrap') return warnCheck('sandbox', 'sandbox', detail, sandboxFix(info.reason ?? ''));
  if (warnings.length > 0) return warnCheck('sandbox', 'sandbox', detail, 'remove the provider key variables from sandbox.env in config.json');
  return okCheck('sandbox', 'sandbox', detail);
}

function sandboxFix(reason: string): string {
  if (reason.includes('needs Linux')) {
    return 'none on this platform: bash commands run unconfined and each one asks permission (or set permissions rules for trusted commands)';
  }
  if (reason.includes('not installed')) return 'install bubblewrap: `sudo apt-get install bubblewrap` (Fedora: `sudo dnf install bubblewrap`)';
  // https://github.com/containers/bubblewrap#user-namespaces and Ubuntu 24.04's AppArmor
  // restriction (https://ubuntu.com/blog/ubuntu-23-10-restricted-unprivileged-user-namespaces).
  return (
    'allow unprivileged user namespaces: `sudo sysctl -w kernel.unprivileged_userns_clone=1` (Debian), or on Ubuntu 23.10+ ' +
    '`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (or an AppArmor profile for bwrap); in a container, ' +
    'run it with user namespaces allowed (e.g. docker --security-opt seccomp=unconfined --security-opt apparmor=unconfined)'
  );
}
