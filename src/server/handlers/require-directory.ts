import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { RpcError } from '../wire/rpc-error.js';

/** ACP requires absolute session paths; they must also exist and be directories. */
export function requireDirectory(method: string, field: string, path: string): void {
  if (!isAbsolute(path)) {
    throw RpcError.invalidParams(method, [`${field}: must be an absolute path, got ${JSON.stringify(path)}`]);
  }
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw RpcError.invalidParams(method, [`${field}: ${path} does not exist`]);
  }
  if (!isDirectory) throw RpcError.invalidParams(method, [`${field}: ${path} is not a directory`]);
}
