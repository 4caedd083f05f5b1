import type { JsonSchema } from './to-json-schema.js';

/*
 * Markdown summaries of the JSON Schemas z.toJSONSchema emits, for PROTOCOL.md: a short
 * type label per schema and a field table per object. Covers exactly the keywords zod
 * emits for protocol schemas ($ref, const, enum, anyOf/oneOf, type, items, properties).
 */

/** GitHub's heading anchor: lowercase, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

/** The heading of a named type's section; its anchor is `type-<name>`. */
export function typeHeading(name: string): string {
  return `Type \`${name}\``;
}

/** The `$defs` name a `$ref` points at. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** Text safe inside a Markdown table cell: one line, pipes escaped. */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** A short type label such as `string`, `ContentBlock[]`, `"text"` or `integer \| null` (unescaped). */
export function typeLabel(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `[${name}](#${anchorOf(typeHeading(name))})`;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return variants.map((variant) => typeLabel(variant)).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') {
    const items = schema.items;
    if (items === undefined || Array.isArray(items) || typeof items === 'boolean') return 'array';
    const inner = typeLabel(items);
    return inner.includes(' | ') ? `(${inner})[]` : `${inner}[]`;
  }
  if (schema.type === 'object' && schema.properties !== undefined) return inlineObjectLabel(schema);
  if (typeof schema.type === 'string') return schema.type;
  return 'any';
}

/** `{a: string, b?: Meta}` for small inline objects, plain `object` for bigger ones. */
function inlineObjectLabel(schema: JsonSchema): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0 || entries.length > 4) return 'object';
  const required = new Set(schema.required ?? []);
  const fields = entries.map(([name, property]) => {
    const label = typeof property === 'boolean' ? 'any' : typeLabel(property);
    return `${name}${required.has(name) ? '' : '?'}: ${label}`;
  });
  return `{${fields.join(', ')}}`;
}

/** Whether an object accepts unknown fields, as a short note. */
function opennessNote(schema: JsonSchema): string {
  if (schema.additionalProperties === false) return 'Closed: unknown fields are rejected.';
  return 'Open: unknown fields are accepted and ignored.';
}

/** A table of an object schema's fields. */
export function fieldTable(schema: JsonSchema, defs: Record<string, JsonSchema>): string[] {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) return ['No fields. ' + opennessNote(schema)];
  const required = new Set(schema.required ?? []);
  const lines = ['| Field | Type | Required | Description |', '|---|---|---|---|'];
  for (const name of names) {
    const property = properties[name];
    if (property === undefined || typeof property === 'boolean') continue;
    const description = property.description ?? referencedDescription(property, defs) ?? '';
    lines.push(
      `| \`${name}\` | ${cell(typeLabel(property))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(description)} |`,
    );
  }
  lines.push('', opennessNote(schema));
  return lines;
}

/** The description of the `$defs` entry a schema (or its nullable wrapper) refers to, if any. */
function referencedDescription(schema: JsonSchema, defs: Record<string, JsonSchema>): string | undefined {
  if (typeof schema.$ref === 'string') return defs[refName(schema.$ref)]?.description;
  const target = (schema.anyOf ?? schema.oneOf)?.find((variant) => typeof variant.$ref === 'string');
  return target?.$ref === undefined ? undefined : defs[refName(target.$ref)]?.description;
}

/** The discriminator value of an inline union variant, e.g. `type: "text"`. */
function discriminatorOf(variant: JsonSchema): string | undefined {
  for (const [name, property] of Object.entries(variant.properties ?? {})) {
    if (typeof property !== 'boolean' && property.const !== undefined) {
      return `${name}: ${JSON.stringify(property.const)}`;
    }
  }
  return undefined;
}

/** The body of a type's documentation: its description, then fields or variants. */
export function describeSchema(schema: JsonSchema, defs: Record<string, JsonSchema>): string[] {
  const lines: string[] = [];
  if (schema.description !== undefined) lines.push(schema.description, '');
  const variants = schema.anyOf ?? schema.oneOf;
  const listable = (variant: JsonSchema) => variant.type === 'object' || typeof variant.$ref === 'string';
  if (Array.isArray(variants) && variants.some(listable)) {
    lines.push('One of:', '');
    for (const variant of variants) {
      if (typeof variant.$ref === 'string') {
        lines.push(`- ${typeLabel(variant)}: ${cell(referencedDescription(variant, defs) ?? '')}`, '');
        continue;
      }
      const label = discriminatorOf(variant) ?? typeLabel(variant);
      lines.push(`- \`${label}\`${variant.description ? `: ${variant.description}` : ''}`, '');
      if (variant.type === 'object') lines.push(...fieldTable(variant, defs).map((line) => (line ? `  ${line}` : '')), '');
    }
    return lines;
  }
  if (schema.type === 'object') return [...lines, ...fieldTable(schema, defs), ''];
  lines.push(`Type: ${typeLabel(schema)}`, '');
  return lines;
}
