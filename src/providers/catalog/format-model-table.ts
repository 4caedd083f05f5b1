import type { ModelRow } from './list-model-rows.js';

interface Column {
  title: string;
  /** Numbers are right-aligned so their digits line up. */
  align: 'left' | 'right';
  cell: (row: ModelRow) => string;
}

const columns: readonly Column[] = [
  { title: 'MODEL', align: 'left', cell: (row) => row.ref },
  { title: 'CONTEXT', align: 'right', cell: (row) => formatCount(row.contextWindow) },
  { title: 'MAX OUT', align: 'right', cell: (row) => formatCount(row.maxOutputTokens) },
  { title: 'IN', align: 'right', cell: (row) => formatPrice(row.inputPrice) },
  { title: 'OUT', align: 'right', cell: (row) => formatPrice(row.outputPrice) },
  { title: 'CACHE R', align: 'right', cell: (row) => formatPrice(row.cacheReadPrice) },
  { title: 'CACHE W', align: 'right', cell: (row) => formatPrice(row.cacheWritePrice) },
  { title: 'CAPABILITIES', align: 'left', cell: formatCapabilities },
  { title: 'CONFIGURED', align: 'left', cell: (row) => (row.configured ? 'yes' : 'no') },
];

/**
 * The human-readable `agentd models` listing: one aligned row per model under a header,
 * then a legend. Prices are USD per million tokens; `-` is a cache price the model does
 * not have (such tokens bill at the input price). The text ends in a newline; an empty
 * list says so instead of printing a bare header.
 */
export function formatModelTable(rows: readonly ModelRow[]): string {
  if (rows.length === 0) return 'No models match.\n';
  const cells = rows.map((row) => columns.map((column) => column.cell(row)));
  const widths = columns.map((column, i) => Math.max(column.title.length, ...cells.map((line) => (line[i] ?? '').length)));
  const render = (line: readonly string[]): string =>
    line
      .map((text, i) => {
        const width = widths[i] ?? text.length;
        return columns[i]?.align === 'right' ? text.padStart(width) : text.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const lines = [render(columns.map((column) => column.title)), ...cells.map(render)];
  const legend = 'Prices in USD per 1M tokens; "-": no separate cache price (billed as input). CONFIGURED: key present or keyless local server.';
  return `${lines.join('\n')}\n\n${legend}\n${regionalLegend(rows)}`;
}

/**
 * A line when some model bills more on a regional endpoint than on the global one: its
 * prices above are those of its provider's location, named here.
 */
function regionalLegend(rows: readonly ModelRow[]): string {
  const regional = rows.filter((row) => row.regionalPrices !== null);
  if (regional.length === 0) return '';
  const locations = [...new Set(regional.map((row) => `${row.provider}: ${row.location ?? 'global'}`))].join(', ');
  return `Regional prices: ${regional.length === 1 ? 'one model bills' : `${regional.length} models bill`} more on a regional endpoint than on "global"; shown at each provider's location (${locations}); --json lists both.\n`;
}

/** 200000 → "200,000": exact, and readable at a glance. */
function formatCount(tokens: number): string {
  return tokens.toLocaleString('en-US');
}

/** At least two decimals, more only when the price needs them (0.075 stays 0.075). */
function formatPrice(price: number | null): string {
  if (price === null) return '-';
  return price.toFixed(6).replace(/(\.\d\d\d*?)0+$/, '$1');
}

function formatCapabilities(row: ModelRow): string {
  const names = [row.tools ? 'tools' : '', row.images ? 'images' : '', row.thinking ? 'thinking' : ''].filter((n) => n !== '');
  return names.length === 0 ? '-' : names.join(',');
}
