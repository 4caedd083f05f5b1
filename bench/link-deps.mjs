// The compiled benchmarks run from dist/bench, where Node does not look in bench/node_modules;
// a link there lets them import the SDKs installed for the bench alone. The daemon (dist/src)
// never sees it, so the peers' own dependencies cannot shadow the daemon's.
import { existsSync, lstatSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const target = join(root, 'bench', 'node_modules');
const link = join(root, 'dist', 'bench', 'node_modules');
if (!existsSync(target)) throw new Error('bench/node_modules is missing: run `npm run bench:install` first');
if (existsSync(link) || lstatSync(link, { throwIfNoEntry: false })) rmSync(link, { recursive: true, force: true });
symlinkSync(target, link, 'dir');
