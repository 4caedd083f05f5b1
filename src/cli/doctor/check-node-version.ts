import { okCheck, failCheck, type DoctorCheck } from './doctor-check.js';

/** The oldest Node.js agentd supports (package.json `engines.node`). */
export const MINIMUM_NODE_VERSION = '20.18.0';

/** Whether the Node.js running agentd (`process.versions.node` by default) is new enough. */
export function checkNodeVersion(version: string = process.versions.node): DoctorCheck {
  const title = 'Node.js';
  const parsed = parseVersion(version);
  if (parsed === undefined) {
    return failCheck('node', title, `cannot read the Node.js version "${version}"`, `install Node.js ${MINIMUM_NODE_VERSION} or newer (https://nodejs.org)`);
  }
  if (compareVersions(parsed, parseVersion(MINIMUM_NODE_VERSION) ?? [0, 0, 0]) < 0) {
    return failCheck(
      'node',
      title,
      `v${version} is too old: agentd needs ${MINIMUM_NODE_VERSION} or newer`,
      `install Node.js ${MINIMUM_NODE_VERSION} or newer (https://nodejs.org, or \`nvm install 20\`) and reinstall agentd with it`,
    );
  }
  return okCheck('node', title, `v${version} (needs ${MINIMUM_NODE_VERSION} or newer)`);
}

/** `20.18.1` or `v22.3.0` → [major, minor, patch]; undefined when it is not a version. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
