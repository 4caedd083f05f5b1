/**
 * rg flags that keep only files whose name matches a name-only glob (`*.py`, `Makefile`),
 * for grep's `glob` and glob's prefilter. A file type (`--type-add`), unlike `--glob`,
 * filters without overriding .gitignore; but rg 13 lists hidden files a type matches
 * (`.env.py` for `*.py`), which it skips otherwise, so a negated `--glob` drops those
 * again: without a name filter, neither tool shows hidden files, and with one they must
 * not either. A hidden directory named as the search path is still searched.
 * rg checks that glob against every entry (15–30% of a listing's time, bench/RESULTS.md,
 * "Tools"), so a caller that reads each listed path can drop them itself instead
 * (`dropHidden: false`, then isHiddenPath).
 */
export function nameTypeFilterFlags(nameGlob: string, options: { dropHidden: boolean } = { dropHidden: true }): string[] {
  const flags = ['--type-add', `agentdglob:${nameGlob}`, '--type', 'agentdglob'];
  return options.dropHidden ? [...flags, '--glob', '!.*'] : flags;
}

/** True when a path rg printed (relative to where it searched) has a hidden component. */
export function isHiddenPath(relativePath: string): boolean {
  return relativePath.startsWith('.') || relativePath.includes('/.');
}
