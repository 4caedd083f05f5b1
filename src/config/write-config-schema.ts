import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_SCHEMA_FILE, configJsonSchemaText } from './config-json-schema.js';

/*
 * `npm run config-schema`: regenerate config.schema.json at the package root from the zod
 * config schema. The file is committed; test/config/config-json-schema.test.ts fails when it is stale.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const text = configJsonSchemaText();
writeFileSync(join(root, CONFIG_SCHEMA_FILE), text);
process.stderr.write(`wrote ${CONFIG_SCHEMA_FILE} (${text.length} bytes)\n`);
