/** The page's address of a session's view (the shell's hash router reads `#/session/<id>`). */
export function sessionHref(sessionId: string): string {
  return `#/session/${encodeURIComponent(sessionId)}`;
}
