import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HiddenReason } from '../../tools/sandbox/hidden-paths.js';
import { CORE_ENV_NAMES } from '../../tools/sandbox/sandbox-env.js';
import type { SandboxPolicy } from '../../tools/sandbox/sandbox-policy.js';

const GROUPS: Array<{ reason: HiddenReason; label: string }> = [
  { reason: 'agentd', label: "agentd's own files" },
  { reason: 'runtime', label: 'runtime dir' },
  { reason: 'socket', label: 'sockets' },
  { reason: 'credential', label: 'credentials' },
  { reason: 'denyRead', label: 'sandbox.denyRead' },
];

/**
 * What the sandbox hides on this machine and which variables pass, a line per group for
 * `agentd doctor`. Only paths that exist here are listed (the rest are hidden if they appear).
 */
export function describeSandboxPolicy(policy: SandboxPolicy, home = os.homedir()): string[] {
  const lines: string[] = [];
  for (const { reason, label } of GROUPS) {
    const present = [...new Set(policy.hidden.filter((h) => h.reason === reason && existsSync(h.path)).map((h) => h.path))];
    // A file inside a listed directory adds nothing to the line.
    const shown = present.filter((p) => !present.some((other) => other !== p && p.startsWith(other + path.sep)));
    if (shown.length > 0) lines.push(`hides ${label}: ${shown.map((p) => tilde(p, home)).join(', ')}`);
  }
  const extra = policy.env.allow.slice(CORE_COUNT);
  lines.push(
    `environment: only ${policy.env.allow.slice(0, CORE_COUNT).join(', ')}` +
      (extra.length > 0 ? `, plus ${extra.join(', ')} (sandbox.env)` : '') +
      '; provider API key variables never pass',
  );
  lines.push(`network: ${policy.allowNetwork ? 'allowed by sandbox.network (also loopback services and abstract Unix sockets)' : 'none'}`);
  return lines;
}

/** The core allowlist comes first in every policy (buildEnvPolicy). */
const CORE_COUNT = CORE_ENV_NAMES.length;

function tilde(p: string, home: string): string {
  return p === home || p.startsWith(home + path.sep) ? `~${p.slice(home.length)}` : p;
}
