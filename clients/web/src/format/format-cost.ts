/** A cost in US dollars as the dashboard shows it: cents for sums of a dollar or more, four decimals below. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${usd.toFixed(4)}`;
}
