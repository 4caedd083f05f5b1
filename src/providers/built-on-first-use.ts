/**
 * `build`'s value, made on the first call and kept. A provider's stream schemas are built
 * this way: a daemon holds the schemas of the providers it talks to, and the start-up
 * snapshot, which evaluates every provider's modules, holds none of them (each provider's
 * add 0.1–0.2 MB to the heap a start restores; bench/RESULTS.md, "Compiled ahead").
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: build() }).value;
}
