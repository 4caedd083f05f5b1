import { parseArgs } from 'node:util';
import type { Schedule, ScheduleRun } from '../../../protocol/index.js';
import type { AgentdClient } from '../../../clients/typescript/src/index.js';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { jsonForTerminal, showControlCharacters } from '../../config/show-control-characters.js';
import { describeOwner, tryLockDataDir } from '../../store/data-dir-lock.js';
import { SCHEDULE_FLAGS, scheduleFields } from '../schedules/schedule-flags.js';

/**
 * `agentd schedules list|add|update|remove|run|history`: schedules live in the running
 * daemon, so every action is a `schedules/*` request to it over its socket, and every
 * check and error message is the daemon's.
 */
export async function schedulesCommand(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const action = first === undefined || first.startsWith('-') ? 'list' : first;
  const args = action === first ? rest : argv;
  const run = ACTIONS[action];
  if (!run) throw new Error(`agentd schedules: unknown action "${action}"; use list, add, update ID, remove ID, run ID or history ID (agentd schedules --help)`);
  const client = await connectToDaemon();
  try {
    return await run(client, args);
  } finally {
    client.close();
  }
}

type Action = (client: AgentdClient, argv: string[]) => Promise<number>;

const ACTIONS: Record<string, Action> = {
  async list(client, argv) {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true });
    const { schedules } = await client.listSchedules({});
    for (const schedule of schedules) print(values.json, schedule, describeSchedule);
    return 0;
  },
  async add(client, argv) {
    const { values } = parseArgs({ args: argv, options: SCHEDULE_FLAGS, strict: true });
    const fields = scheduleFields({ cwd: '.', ...values });
    for (const required of ['name', 'cron', 'prompt'] as const) {
      if (fields[required] === undefined) throw new Error(`agentd schedules add needs --${required} (agentd schedules --help)`);
    }
    const { schedule } = await client.addSchedule(fields as Parameters<AgentdClient['addSchedule']>[0]);
    print(values.json, schedule, (s) => `added ${describeSchedule(s)}`);
    return 0;
  },
  async update(client, argv) {
    const { values, positionals } = parseArgs({ args: argv, options: SCHEDULE_FLAGS, allowPositionals: true, strict: true });
    const { schedule } = await client.updateSchedule({ id: onlyId('update', positionals), ...scheduleFields(values) });
    print(values.json, schedule, (s) => `updated ${describeSchedule(s)}`);
    return 0;
  },
  async remove(client, argv) {
    const { positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true });
    const id = onlyId('remove', positionals);
    await client.removeSchedule({ id });
    process.stderr.write(`agentd: removed schedule ${id} (its history is kept)\n`);
    return 0;
  },
  async run(client, argv) {
    const { values, positionals } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    const result = await client.runSchedule({ id: onlyId('run', positionals) });
    print(values.json, result, (r) =>
      r.status === 'started'
        ? `started run ${r.runId} in session ${r.sessionId} (agentd sessions show ${r.sessionId})`
        : r.status === 'failed'
          ? `run ${r.runId} could not start: ${r.error ?? 'see agentd schedules history'}`
          : `run ${r.runId} ${r.status}: another run of this schedule is going`,
    );
    return result.status === 'failed' ? 1 : 0;
  },
  async history(client, argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const limit = values.limit !== undefined ? Number(values.limit) : undefined;
    const page = await client.scheduleHistory({
      id: onlyId('history', positionals),
      ...(limit !== undefined ? { limit } : {}),
      ...(values.cursor ? { cursor: values.cursor } : {}),
    });
    for (const run of page.runs) print(values.json, run, describeRun);
    if (page.nextCursor && !values.json) process.stderr.write(`agentd: older runs: --cursor ${page.nextCursor}\n`);
    return 0;
  },
};

/** The client of the daemon that owns the data directory; schedules run nowhere else. */
async function connectToDaemon(): Promise<AgentdClient> {
  const paths = resolveAgentdPaths(process.env);
  const attempt = tryLockDataDir(paths.dataDir);
  if (attempt.kind === 'acquired') {
    attempt.lock.release();
    throw new Error(`agentd schedules: no daemon runs for ${paths.dataDir}; schedules live in the daemon: start it with agentd serve --socket`);
  }
  if (!attempt.owner?.socketPath) {
    throw new Error(`agentd schedules: ${describeOwner(paths.dataDir, attempt.owner)} and serves no socket; restart it with agentd serve --socket`);
  }
  // Loaded only here, as `agentd sessions delete` does.
  const { connectAgentdClient } = await import('../../../clients/typescript/src/index.js');
  const client = await connectAgentdClient(attempt.owner.socketPath);
  await client.initialize({ protocolVersion: 1, clientInfo: { name: 'agentd-schedules', version: '1' } });
  return client;
}

function onlyId(action: string, positionals: string[]): string {
  if (positionals.length !== 1) throw new Error(`agentd schedules ${action} needs one schedule id: agentd schedules ${action} ID (agentd schedules list shows them)`);
  return positionals[0]!;
}

/** One line per value: names and prompts can come from a project's config, errors from a model or tool; every control is shown. */
function print<T>(json: boolean | undefined, value: T, text: (value: T) => string): void {
  process.stdout.write(`${json ? jsonForTerminal(value) : showControlCharacters(text(value))}\n`);
}

function describeSchedule(s: Schedule): string {
  const state = s.enabled ? `next ${s.nextRunAt ?? 'never'}` : 'disabled';
  return `${s.id}  ${s.name}  "${s.cron}" ${s.timezone}  ${state}  ${s.source}  ${s.cwd}`;
}

function describeRun(r: ScheduleRun): string {
  const how = r.outcome ? `${r.outcome}${r.stopReason ? ` (${r.stopReason})` : ''}` : 'running';
  const cost = `$${r.costUsd.toFixed(4)}`;
  return `${r.runId}  ${r.startedAt}  ${r.trigger}  ${how}  ${cost}  ${r.sessionId ?? '-'}${r.error ? `  ${r.error}` : ''}`;
}
