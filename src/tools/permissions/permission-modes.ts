// The modes alone, apart from the decision (permission-mode.ts), so that `agentd serve`
// can parse `--permission-mode` without loading the rule matchers and the shell parser.

/**
 * `--permission-mode`:
 * - `ask`: reads and searches inside the workspace run, everything else asks;
 * - `acceptEdits`: as ask, but writes inside the workspace run without asking;
 * - `bypass`: nothing asks (explicit deny rules still refuse);
 * - `deny`: nothing asks: whatever would ask is refused (for unattended runs).
 */
export type PermissionMode = 'ask' | 'acceptEdits' | 'bypass' | 'deny';

export const PERMISSION_MODES: readonly PermissionMode[] = ['ask', 'acceptEdits', 'bypass', 'deny'];

/** Parses a `--permission-mode` value, with an error listing the valid ones. */
export function parsePermissionMode(text: string): PermissionMode {
  const mode = PERMISSION_MODES.find((m) => m === text);
  if (!mode) throw new Error(`Unknown permission mode "${text}"; use one of: ${PERMISSION_MODES.join(', ')}.`);
  return mode;
}
