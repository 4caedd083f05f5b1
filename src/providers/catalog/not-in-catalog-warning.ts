/**
 * The warning for a model the catalog does not know: what agentd assumes instead and where
 * to describe the model (the fields are in config.schema.json under ModelOverride).
 */
export function notInCatalogWarning(ref: string, assumedContextWindow: number): string {
  const provider = ref.slice(0, Math.max(0, ref.indexOf('/')));
  const model = ref.slice(provider.length + 1);
  return (
    `model ${ref} is not in the catalog: assuming a ${assumedContextWindow}-token window and no prices; ` +
    `describe it in config.json as providers.${provider}.models["${model}"] (contextWindow, maxOutputTokens, inputPrice, outputPrice, …; see config.schema.json)`
  );
}
