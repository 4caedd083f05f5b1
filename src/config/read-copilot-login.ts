import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { COPILOT_NOT_LOGGED_IN, CopilotLoginSchema, type CopilotLogin } from './copilot-login.js';

/**
 * Reads the stored Copilot login (see copilot-login.ts). Throws one line: not logged in when
 * the file is missing; a refusal when the file is readable by group or others, or owned by
 * another user (the same rule as ssh's private keys: a secret others can read, or replace,
 * is not used); what to do when it is not the JSON agentd wrote. `owner` is the uid the file
 * must belong to: this process's.
 */
export function readCopilotLogin(file: string, owner: number | undefined = process.getuid?.()): CopilotLogin {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink planted at the path is refused rather than followed.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(COPILOT_NOT_LOGGED_IN);
    if (code === 'ELOOP') throw new Error(`copilot: ${file} is a symbolic link; remove it and run \`agentd login copilot\``);
    throw new Error(`copilot: cannot read ${file} (${code ?? String(error)}); run \`agentd login copilot\``);
  }
  try {
    const stats = fstatSync(fd);
    if (owner !== undefined && stats.uid !== owner) {
      throw new Error(`copilot: ${file} belongs to another user (uid ${stats.uid}); remove it and run \`agentd login copilot\``);
    }
    if (process.platform !== 'win32' && (stats.mode & 0o077) !== 0) {
      const mode = (stats.mode & 0o777).toString(8).padStart(3, '0');
      throw new Error(`copilot: ${file} is readable by others (mode ${mode}); run \`chmod 600 ${file}\` or \`agentd login copilot\` again`);
    }
    const parsed = CopilotLoginSchema.safeParse(safeJson(readFileSync(fd, 'utf8')));
    if (!parsed.success) throw new Error(`copilot: ${file} is not a login agentd wrote; run \`agentd login copilot\` again`);
    return parsed.data;
  } finally {
    closeSync(fd);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
