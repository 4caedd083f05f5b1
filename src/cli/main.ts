#!/usr/bin/env node
import { runCommandLine } from './command-line.js';

runCommandLine(process.argv.slice(2));
