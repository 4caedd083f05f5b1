import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { jsonForTerminal, showControlCharacters } from '../../config/show-control-characters.js';
import { formatDoctorReport } from '../doctor/format-doctor-report.js';
import { runDoctor } from '../doctor/run-doctor.js';

/**
 * `agentd doctor [--json] [--config FILE] [--cwd DIR]`: checks the installation (Node.js,
 * config, directories, store, sandbox, ripgrep, providers, daemon) and prints a checklist
 * with a fix for every problem, or the report as JSON. Exits 1 when any check fails.
 */
export async function doctorCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, config: { type: 'string' }, cwd: { type: 'string' } },
    strict: true,
  });
  const report = await runDoctor({
    env: process.env,
    cwd: resolve(values.cwd ?? process.cwd()),
    ...(values.config !== undefined ? { configFile: values.config } : {}),
  });
  // Details quote config files, MCP server names and their errors: lines kept, every other control shown.
  process.stdout.write(values.json ? `${jsonForTerminal(report, 2)}\n` : `${showControlCharacters(formatDoctorReport(report), { keep: '\n' })}\n`);
  return report.ok ? 0 : 1;
}
