import { createBashTool, type BashToolOptions } from './builtin/bash.js';
import { editTool } from './builtin/edit.js';
import { globTool } from './builtin/glob.js';
import { grepTool } from './builtin/grep.js';
import { lsTool } from './builtin/ls.js';
import { readTool } from './builtin/read.js';
import { createSkillTool, type SkillToolOptions } from './builtin/skill.js';
import { todoTool } from './builtin/todo.js';
import { createWebFetchTool, type WebFetchOptions } from './builtin/web-fetch.js';
import { writeTool } from './builtin/write.js';
import type { Tool } from './tool.js';

/** Settings of the built-in tools that have any. */
export interface BuiltinToolOptions {
  bash?: BashToolOptions;
  webFetch?: WebFetchOptions;
  skill?: SkillToolOptions;
}

/** Every built-in tool, ready to register with origin `builtin`. */
export function createBuiltinTools(options: BuiltinToolOptions = {}): Tool[] {
  return [
    readTool,
    writeTool,
    editTool,
    globTool,
    grepTool,
    lsTool,
    createBashTool(options.bash),
    createWebFetchTool(options.webFetch),
    createSkillTool(options.skill),
    todoTool,
  ];
}
