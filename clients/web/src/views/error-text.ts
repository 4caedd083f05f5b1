/** The one line a view shows for a failed request: the daemon's message says what and how to fix it. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The `issues` of an InvalidParams answer (`data.issues`, each `field: problem`), split by
 * field, so a form can show each beside its input; issues naming no known field go under ''.
 */
export function issuesByField(error: unknown, fields: readonly string[]): Map<string, string[]> {
  const data = (error as { data?: { issues?: unknown } } | undefined)?.data;
  const issues = Array.isArray(data?.issues) ? data.issues.filter((issue): issue is string => typeof issue === 'string') : [];
  const byField = new Map<string, string[]>();
  for (const issue of issues) {
    const match = /^([A-Za-z]+)\s*:\s*(.*)$/s.exec(issue);
    const field = match && fields.includes(match[1]!) ? match[1]! : '';
    const text = field ? match![2]! : issue;
    byField.set(field, [...(byField.get(field) ?? []), text]);
  }
  return byField;
}
