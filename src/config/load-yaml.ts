import { createRequire } from 'node:module';

type YamlModule = typeof import('yaml');

const require = createRequire(import.meta.url);
let yaml: YamlModule | undefined;

/**
 * The YAML parser, loaded when the first front matter (an agent file, a SKILL.md) is
 * read: most daemons start with neither, and loading it at start-up cost tens of
 * milliseconds before the first answer. Synchronous (its CommonJS build), as the readers
 * of agent files are.
 */
export function loadYaml(): YamlModule {
  yaml ??= require('yaml') as YamlModule;
  return yaml;
}
