import { z } from 'zod';

/**
 * An optional vendor field that may also be sent as null: compatible servers and proxies
 * write `null` where the vendor leaves a field out. Null reads as absent, so the parser
 * sees `undefined` either way; any other value must fit `schema`.
 */
export function absentIfNull<T extends z.ZodType>(schema: T): z.ZodType<z.output<T> | undefined, z.input<T> | null | undefined> {
  return schema.nullish().transform((value) => value ?? undefined);
}
