import { z } from 'zod';

/**
 * A schema for a vendor object tagged by `type` whose fields depend on the type: an
 * object of a type in `cases` is checked against that case alone (so a wrong field is
 * named by its own path, e.g. `item.call_id`), and any other type goes to `other`, which
 * must accept what it cannot know. This is how a stream schema checks only what the
 * parser reads per type, while types added by the vendor later (hosted tools, new block
 * kinds) pass. zod's discriminatedUnion cannot do it: it has no case for "any other
 * string", and a plain union would report a wrong field as "no option matched".
 */
export function schemaByType<Cases extends Record<string, z.ZodType>, Other extends z.ZodType>(
  cases: Cases,
  other: Other,
): z.ZodType<z.output<Cases[keyof Cases]> | z.output<Other>> {
  const tagged = z.object({ type: z.string() });
  return z.unknown().transform((value, ctx) => {
    const type = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
    const schema: z.ZodType = typeof type !== 'string' ? tagged : Object.hasOwn(cases, type) ? (cases[type] as z.ZodType) : other;
    const checked = schema.safeParse(value);
    if (checked.success) return checked.data as z.output<Cases[keyof Cases]> | z.output<Other>;
    // The issues keep their paths, which the enclosing object prefixes with its own key.
    for (const issue of checked.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  });
}
