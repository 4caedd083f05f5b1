import { AgentdClientError } from '../../../clients/typescript/src/index.js';
import { AgentdPromptResponseMetaSchema, readAgentdMeta } from '../../../protocol/index.js';
import { jsonForTerminal, showControlCharacters } from '../../config/show-control-characters.js';
import { inCliTerms } from '../describe-daemon-error.js';
import { packageVersion } from '../package-version.js';
import { openRunConnection } from './open-run-connection.js';

/** What `agentd run --detach` was asked. */
export interface DetachedRun {
  text: string;
  cwd: string;
  json: boolean;
  agent?: string;
  model?: string;
  /** `--session ID`, or `--continue`'s newest session of the directory; a new session when neither. */
  session?: { id: string } | { newestIn: string };
}

/**
 * `agentd run --detach`: hands the prompt to the running daemon's work queue and exits at
 * once, printing the session id (stdout) and how to follow it (stderr); `--json` prints one
 * line with the session and job ids instead. The turn runs headless in whichever daemon
 * takes the job (any daemon of the cluster on the PostgreSQL store), so only a serving
 * daemon will do: one started for this run would stop, and its queue with it.
 */
export async function queueDetachedRun(run: DetachedRun): Promise<number> {
  const connection = await openRunConnection({
    cwd: run.cwd,
    env: process.env,
    version: packageVersion(),
    log: (line) => void process.stderr.write(`${line}\n`),
    requireServing: 'agentd run --detach queues the prompt in the running daemon, and none runs: start one with `agentd serve` (a daemon started for this run alone would stop before the prompt ran)',
  });
  const { client } = connection;
  try {
    await client.initialize({ protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'agentd-run', version: packageVersion() } });
    const sessionId = await chooseSession(client, run);
    if (run.agent) await client.setMode({ sessionId, modeId: run.agent });
    if (run.model) await client.setConfigOption({ sessionId, configId: 'model', value: run.model });
    const answer = await client.prompt({ sessionId, prompt: [{ type: 'text', text: run.text }], _meta: { agentd: { queue: true } } });
    const queued = readAgentdMeta(AgentdPromptResponseMetaSchema, answer);
    if (run.json) {
      process.stdout.write(jsonForTerminal({ sessionId, jobId: queued?.jobId ?? null, queue: queued?.queue ?? null }) + '\n');
      return 0;
    }
    process.stdout.write(`${sessionId}\n`);
    process.stderr.write(
      `agentd: queued as job ${showControlCharacters(queued?.jobId ?? '?')}; read it with \`agentd sessions show ${sessionId}\`, ` +
        `follow it live in \`agentd dashboard\` or an editor, go on with \`agentd run --session ${sessionId} "…"\`\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof AgentdClientError)) throw error;
    process.stderr.write(`agentd: ${showControlCharacters(inCliTerms(error), { keep: '\n' })}\n`);
    return 1;
  } finally {
    await connection.close();
  }
}

/** The session to queue the prompt on: `--session`, `--continue`'s, or a new one in the directory. */
async function chooseSession(client: Awaited<ReturnType<typeof openRunConnection>>['client'], run: DetachedRun): Promise<string> {
  const pick = run.session;
  if (pick && 'id' in pick) return pick.id;
  if (pick) {
    const newest = (await client.listSessions({ cwd: pick.newestIn })).sessions[0]?.sessionId;
    if (!newest) throw new Error(`agentd run --continue: no session in ${pick.newestIn} yet; leave out --continue to start one`);
    return newest;
  }
  return (await client.newSession({ cwd: run.cwd, mcpServers: [] })).sessionId;
}
