import path from 'node:path';
import { isInside } from './is-inside.js';

/** A path as the model and the user should see it: relative to cwd when inside, else absolute. */
export function displayPath(absolutePath: string, cwd: string): string {
  if (!isInside(absolutePath, cwd)) return absolutePath;
  return path.relative(cwd, absolutePath) || '.';
}
