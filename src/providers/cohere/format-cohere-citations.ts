import type { CohereCitation } from './cohere-stream-schema.js';

/**
 * The citations of an answer as a short source list, shown after the answer text:
 *
 *     Sources:
 *     [1] "24°C" — tool result get_weather_m3kdvxncg1p8:0
 *     [2] "automation of tasks" — benefits.txt (doc:0)
 *
 * One line per citation, in the order Cohere sent them, quoting the cited words and
 * naming each source: a document by its `title` (then its id), a tool result by its id
 * (`<tool call id>:<n>`, https://docs.cohere.com/v2/docs/tool-use-citations). Cohere
 * sends a citation as its start and end offsets into the answer; agentd's stream has no
 * place for offsets, and a list the reader can check beats markers in the text.
 * Empty when there are none.
 */
export function formatCohereCitations(citations: readonly CohereCitation[]): string {
  const lines = citations.flatMap((citation, i) => {
    const sources = (citation.sources ?? []).map(describeSource).filter((s) => s !== '');
    const quoted = citation.text !== undefined && citation.text !== '' ? `"${citation.text}"` : '';
    if (quoted === '' && sources.length === 0) return [];
    return [`[${i + 1}] ${[quoted, sources.join('; ')].filter((s) => s !== '').join(' — ')}`];
  });
  return lines.length === 0 ? '' : `Sources:\n${lines.join('\n')}`;
}

function describeSource(source: NonNullable<CohereCitation['sources']>[number]): string {
  const id = source.id ?? '';
  if (source.type === 'tool' || source.tool_output !== undefined) return id === '' ? 'tool result' : `tool result ${id}`;
  const title = source.document?.['title'];
  if (typeof title === 'string' && title !== '') return id === '' ? title : `${title} (${id})`;
  return id === '' ? 'document' : `document ${id}`;
}
