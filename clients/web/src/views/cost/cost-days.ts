/** The range picker's choices, in days ending today (UTC). */
export const COST_RANGES = [7, 30, 90] as const;
export type CostRange = (typeof COST_RANGES)[number];

const DAY_MS = 86_400_000;

/** A Date's UTC day as `YYYY-MM-DD`. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `daemon/costs`'s since and until for the last `days` UTC days, today included. */
export function rangeEnding(today: Date, days: number): { since: string; until: string } {
  const until = utcDay(today);
  const since = utcDay(new Date(Date.parse(`${until}T00:00:00Z`) - (days - 1) * DAY_MS));
  return { since, until };
}

/** Every UTC day from `since` to `until`, both included; empty when until is before since or either is unreadable. */
export function daysBetween(since: string, until: string): string[] {
  const start = Date.parse(`${since}T00:00:00Z`);
  const end = Date.parse(`${until}T00:00:00Z`);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return [];
  const days: string[] = [];
  for (let t = start; t <= end; t += DAY_MS) days.push(utcDay(new Date(t)));
  return days;
}
