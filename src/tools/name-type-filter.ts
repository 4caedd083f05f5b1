/**
 * rg flags that keep only files whose name matches a name-only glob (`*.py`, `Makefile`),
 * for grep's `glob` and glob's prefilter. A file type (`--type-add`), unlike `--glob`,
 * filters without overriding .gitignore; but rg 13 lists hidden files a type matches
 * (`.env.py` for `*.py`), which it skips otherwise, so a negated `--glob` drops those
 * again: without a name filter, neither tool shows hidden files, and with one they must
 * not either. A hidden directory named as the search path is still searched.
 */
export function nameTypeFilterFlags(nameGlob: string): string[] {
  return ['--type-add', `agentdglob:${nameGlob}`, '--type', 'agentdglob', '--glob', '!.*'];
}
