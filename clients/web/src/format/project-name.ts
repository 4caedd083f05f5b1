/** A project folder's last path segment, what a list shows (the whole path goes in a title). */
export function projectName(cwd: string): string {
  const parts = cwd.split(/[\\/]/).filter((part) => part !== '');
  return parts.at(-1) ?? cwd;
}
