import { createRequire } from 'node:module';

type CronerModule = typeof import('croner');

const require = createRequire(import.meta.url);
let croner: CronerModule | undefined;

/**
 * croner's Cron class, loaded when the first schedule is checked or started: a daemon
 * without schedules never needs it, and it would sit on the path to the first answer
 * (config validation runs before `initialize` is answered). Synchronous (its CommonJS build).
 */
export function loadCron(): CronerModule['Cron'] {
  croner ??= require('croner') as CronerModule;
  return croner.Cron;
}
