const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 4, maximumFractionDigits: 4 });

/**
 * US dollars as people read them: two decimals from a cent up, four below (a single model
 * request often costs a fraction of a cent, which "$0.00" would hide), and "< $0.0001"
 * for what four decimals still round to zero.
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '—';
  if (usd === 0) return dollars.format(0);
  const size = Math.abs(usd);
  if (size < 0.00005) return usd < 0 ? '> −$0.0001' : '< $0.0001';
  return size < 0.01 ? cents.format(usd) : dollars.format(usd);
}
