/**
 * What is wrong with an IANA time zone name, or undefined when this Node's Intl (the same
 * data croner reads the cron in) knows it.
 */
export function describeTimezoneProblem(timezone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return undefined;
  } catch {
    return `unknown time zone "${timezone}"; use an IANA name like "Europe/Berlin", "America/New_York" or "UTC" (see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones)`;
  }
}

/** The daemon's own time zone, the default of a schedule that names none. */
export function localTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
