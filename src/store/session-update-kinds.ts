/**
 * The kinds of session update (the session_updates table's `kind`) that are not session
 * events: a permission question a turn puts to the followers on other daemons, and its
 * settling, whoever answered first. Apart from postgres-session-updates.ts so that reading
 * them loads no database driver.
 */
export const PERMISSION_QUESTION_KINDS: ReadonlySet<string> = new Set(['permission_asked', 'permission_settled']);
