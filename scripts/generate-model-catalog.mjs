#!/usr/bin/env node
// Regenerates src/providers/catalog/models.json from a local copy of models.dev's public
// database (https://models.dev/api.json, built from github.com/anomalyco/models.dev).
//
//   curl -o /tmp/api.json https://models.dev/api.json
//   node scripts/generate-model-catalog.mjs /tmp/api.json [--out FILE] [--retrieved YYYY-MM-DD] [--note TEXT]
//
// `--note` is appended to the `source` field, to say how this copy of the data was obtained.
//
// api.json is `{ <provider id>: { models: { <model id>: Model } } }` where Model has
// (README of anomalyco/models.dev, "Schema Reference"):
//   limit.context  → contextWindow      (max tokens in the window, input + output)
//   limit.output   → maxOutputTokens
//   cost.input     → inputPrice         (USD per 1M input tokens)
//   cost.output    → outputPrice        (USD per 1M output tokens; reasoning is billed as output)
//   cost.cache_read  → cacheReadPrice   (only when present)
//   cost.cache_write → cacheWritePrice  (only when present)
//   tool_call      → tools
//   modalities.input contains "image" → images   (`attachment` also covers PDFs/files, so it is not used)
//   reasoning      → thinking
// A provider's `regional` list adds `regionalPrices` (its prices times `multiplier`, from
// the source it names) to the listed models: what a regional endpoint bills above the global one.
// Only the base price tier is kept: `cost.tiers` (higher prices past a context size) and
// `experimental.modes` (priority/fast service) are not represented in the catalog.
// A model is left out, with a warning on stderr, when it is missing from the input, marked
// `status = "deprecated"`, or lacks a context/output limit or an input/output price:
// figures are never invented.
//
// The catalog lists the current models of each built-in provider (PROVIDERS below), keyed
// `<agentd provider id>/<vendor model id>`.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** agentd provider id → models.dev provider id and the model ids to keep, newest first. */
export const PROVIDERS = {
  anthropic: {
    from: 'anthropic',
    models: [
      'claude-opus-5-5', 'claude-sonnet-5-5', 'claude-opus-5', 'claude-sonnet-5', 'claude-opus-4-8', 'claude-opus-4-7', 'claude-opus-4-6',
      'claude-sonnet-4-6', 'claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5',
    ],
  },
  openai: {
    from: 'openai',
    models: [
      'gpt-6-astra', 'gpt-5.6', 'gpt-5.5', 'gpt-5.4', 'gpt-5.2', 'gpt-5.1', 'gpt-5.1-codex',
      'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'o3', 'o4-mini',
    ],
  },
  google: {
    from: 'google',
    models: [
      'gemini-3.5-flash', 'gemini-3.1-pro-preview', 'gemini-3.1-flash-lite', 'gemini-2.5-pro',
      'gemini-2.5-flash', 'gemini-2.5-flash-lite',
    ],
  },
  deepseek: { from: 'deepseek', models: ['deepseek-v4-pro', 'deepseek-v4-flash', 'deepseek-chat', 'deepseek-reasoner'] },
  mistral: { from: 'mistral', models: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'codestral-latest'] },
  groq: { from: 'groq', models: ['openai/gpt-oss-120b', 'openai/gpt-oss-20b', 'qwen/qwen3-32b'] },
  xai: { from: 'xai', models: ['grok-4.7', 'grok-4', 'grok-4-1-fast', 'grok-code-fast-1'] },
  together: { from: 'togetherai', models: ['moonshotai/Kimi-K2.6', 'zai-org/GLM-5.2'] },
  fireworks: { from: 'fireworks-ai', models: ['accounts/fireworks/models/gpt-oss-120b', 'accounts/fireworks/models/kimi-k2p6'] },
  openrouter: { from: 'openrouter', models: ['anthropic/claude-sonnet-5', 'anthropic/claude-sonnet-4.6'] },
  cerebras: { from: 'cerebras', models: ['qwen-3.8-27b'] },
  moonshot: { from: 'moonshotai', models: ['kimi-k3', 'kimi-k2.6'] },
  zhipu: { from: 'zhipuai', models: ['glm-5.2'] },
  qwen: { from: 'alibaba', models: ['qwen3-max', 'qwen3-coder-plus'] },
  minimax: { from: 'minimax', models: ['MiniMax-M3'] },
  siliconflow: { from: 'siliconflow', models: ['zai-org/GLM-5.2'] },
  cohere: {
    from: 'cohere',
    models: ['command-a-plus-05-2026', 'command-a-03-2025', 'command-a-reasoning-08-2025', 'command-a-vision-07-2025', 'command-r-plus-08-2024', 'command-r-08-2024', 'command-r7b-12-2024'],
  },
  // Google's and Anthropic's models on Vertex AI, at the global endpoint's prices (what
  // models.dev lists), with the regional endpoints' prices where they are higher.
  vertex: {
    from: 'google-vertex',
    models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'claude-sonnet-4-5@20250929', 'claude-opus-4-5@20251101', 'claude-opus-4-1@20250805', 'claude-haiku-4-5@20251001'],
    regional: {
      // Anthropic, "Claude on Vertex AI", section "Global vs regional endpoints": "Regional
      // endpoints include a 10% pricing premium over global endpoints. This applies to Claude
      // Sonnet 4.5 and future models only" (later versions of the page say the same of the
      // multi-region `us`/`eu` locations); older models (Opus 4.1 and before) keep one price. Gemini gets none: Google's global-endpoint
      // page (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations#use_the_global_endpoint)
      // gives availability, not price, as the difference, and no Google source we found prices
      // Gemini per region.
      multiplier: 1.1,
      models: ['claude-sonnet-4-5@20250929', 'claude-opus-4-5@20251101', 'claude-haiku-4-5@20251001'],
      source: 'regional prices of vertex/claude-*-4-5 models: the global prices +10% (https://docs.anthropic.com/en/api/claude-on-vertex-ai, "Global vs regional endpoints")',
    },
  },
  // A `bedrock` provider (type "bedrock" in config): base model ids and the regional
  // inference profiles (`us.`, `eu.`) whose prices differ from the base ones.
  bedrock: {
    from: 'amazon-bedrock',
    models: [
      'anthropic.claude-sonnet-4-5-20250929-v1:0', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'anthropic.claude-haiku-4-5-20251001-v1:0', 'amazon.nova-2-lite-v1:0', 'eu.amazon.nova-2-lite-v1:0', 'meta.llama4-maverick-17b-instruct-v1:0',
    ],
  },
};

const isCount = (value) => Number.isInteger(value) && value > 0;
const isPrice = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** One models.dev model → a catalog entry, or the reason it cannot be one. */
export function mapModel(model) {
  if (model.status === 'deprecated') return { skip: 'deprecated' };
  const limit = model.limit ?? {};
  const cost = model.cost ?? {};
  if (!isCount(limit.context) || !isCount(limit.output)) return { skip: 'no context/output limit' };
  if (!isPrice(cost.input) || !isPrice(cost.output)) return { skip: 'no input/output price' };
  const entry = {
    contextWindow: limit.context,
    maxOutputTokens: limit.output,
    inputPrice: cost.input,
    outputPrice: cost.output,
  };
  if (isPrice(cost.cache_read)) entry.cacheReadPrice = cost.cache_read;
  if (isPrice(cost.cache_write)) entry.cacheWritePrice = cost.cache_write;
  entry.tools = model.tool_call === true;
  entry.images = Array.isArray(model.modalities?.input) && model.modalities.input.includes('image');
  entry.thinking = model.reasoning === true;
  return { entry };
}

/** A price times a premium, rounded to a millionth of a dollar so 3 × 1.1 reads 3.3, not 3.3000000000000003. */
const premium = (price, multiplier) => Math.round(price * multiplier * 1e6) / 1e6;

/** An entry's prices on a regional endpoint: each of its prices times `multiplier`. */
export function regionalPrices(entry, multiplier) {
  const prices = { inputPrice: premium(entry.inputPrice, multiplier), outputPrice: premium(entry.outputPrice, multiplier) };
  if (entry.cacheReadPrice !== undefined) prices.cacheReadPrice = premium(entry.cacheReadPrice, multiplier);
  if (entry.cacheWritePrice !== undefined) prices.cacheWritePrice = premium(entry.cacheWritePrice, multiplier);
  return prices;
}

/** The whole catalog from a parsed api.json; `warn` receives one line per skipped model. */
export function generateCatalog(api, retrieved, warn = () => {}, note = undefined) {
  const models = {};
  const regionalSources = [];
  for (const [agentdId, { from, models: ids, regional }] of Object.entries(PROVIDERS)) {
    const provider = api[from];
    if (provider === undefined || typeof provider.models !== 'object') {
      warn(`${agentdId}: provider "${from}" is not in the input; its models are left out`);
      continue;
    }
    for (const id of ids) {
      const model = provider.models[id];
      if (model === undefined) {
        warn(`${agentdId}/${id}: not in the input (${from}); left out`);
        continue;
      }
      const mapped = mapModel(model);
      if (mapped.skip) {
        warn(`${agentdId}/${id}: ${mapped.skip}; left out`);
        continue;
      }
      models[`${agentdId}/${id}`] = mapped.entry;
      if (regional?.models.includes(id)) {
        mapped.entry.regionalPrices = regionalPrices(mapped.entry, regional.multiplier);
        if (!regionalSources.includes(regional.source)) regionalSources.push(regional.source);
      }
    }
  }
  return {
    source:
      `models.dev (https://models.dev/api.json, data from github.com/anomalyco/models.dev), retrieved ${retrieved}; ` +
      'prices in USD per 1M tokens at the base tier (long-context tiers and priority modes not represented); ' +
      'generated by scripts/generate-model-catalog.mjs' +
      regionalSources.map((source) => `; ${source}`).join('') +
      (note ? `; ${note}` : ''),
    models,
  };
}

function usage(message) {
  process.stderr.write(
    `${message}\nusage: node scripts/generate-model-catalog.mjs <api.json> [--out FILE] [--retrieved YYYY-MM-DD] [--note TEXT]\n` +
      '  <api.json>  a local copy of https://models.dev/api.json\n',
  );
  process.exit(2);
}

function main(argv) {
  const args = [...argv];
  let input;
  let out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/providers/catalog/models.json');
  let retrieved = new Date().toISOString().slice(0, 10);
  let note;
  while (args.length > 0) {
    const arg = args.shift();
    if (arg === '--out') out = args.shift() ?? usage('--out needs a file path');
    else if (arg === '--retrieved') retrieved = args.shift() ?? usage('--retrieved needs a date');
    else if (arg === '--note') note = args.shift() ?? usage('--note needs a text');
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else if (input === undefined) input = arg;
    else usage(`unexpected argument ${arg}`);
  }
  if (input === undefined) usage('missing the path of a local api.json');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(retrieved)) usage(`--retrieved must be YYYY-MM-DD, got "${retrieved}"`);
  let api;
  try {
    api = JSON.parse(fs.readFileSync(input, 'utf8'));
  } catch (error) {
    usage(`cannot read ${input} as JSON: ${error.message}`);
  }
  if (api === null || typeof api !== 'object' || Array.isArray(api)) usage(`${input} is not a models.dev api.json object`);
  const catalog = generateCatalog(api, retrieved, (line) => process.stderr.write(`warning: ${line}\n`), note);
  fs.writeFileSync(out, `${JSON.stringify(catalog, null, 2)}\n`);
  process.stderr.write(`wrote ${Object.keys(catalog.models).length} models to ${out}\n`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
