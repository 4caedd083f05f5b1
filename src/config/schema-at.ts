/**
 * Walking a zod schema along a JSON path, so error messages can say what the schema
 * expects at the spot where the input went wrong (the keys allowed there, whole numbers).
 */
import { z } from 'zod';

type Path = readonly PropertyKey[];

/** The schema that validates the value at `path`, walking objects, records, arrays and unions. */
export function schemaAt(schema: z.ZodType | undefined, path: Path): z.ZodType | undefined {
  let current = unwrap(schema);
  for (const key of path) {
    if (current === undefined) return undefined;
    current = unwrap(childSchema(current, key));
  }
  return current;
}

function childSchema(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  if (schema instanceof z.ZodObject) return (schema.shape as Record<PropertyKey, z.ZodType>)[key];
  if (schema instanceof z.ZodRecord) return schema.valueType as z.ZodType;
  if (schema instanceof z.ZodArray) return schema.element as z.ZodType;
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as z.ZodType[]) {
      const child = childSchema(unwrap(option) ?? option, key);
      if (child !== undefined) return child;
    }
  }
  return undefined;
}

export function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/**
 * Keys the schema allows for `value`. For a union of objects, only the shapes whose
 * required keys `value` has count: `{command, headers}` is a local MCP server with a
 * stray key, not a remote one.
 */
export function knownKeys(schema: z.ZodType | undefined, value: unknown): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (!(schema instanceof z.ZodUnion)) return [];
  const options = (schema.options as z.ZodType[]).map((option) => unwrap(option));
  const fitting = options.filter((option) => option instanceof z.ZodObject && hasRequiredKeys(option, value));
  const chosen = fitting.length > 0 ? fitting : options;
  return [...new Set(chosen.flatMap((option) => knownKeys(option, value)))];
}

function hasRequiredKeys(schema: z.ZodObject, value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(schema.shape as Record<string, z.ZodType>).every(
    ([key, field]) => key in value || field.safeParse(undefined).success,
  );
}

export function isIntegerSchema(schema: z.ZodType | undefined): boolean {
  return schema instanceof z.ZodNumber && schema.isInt === true;
}
