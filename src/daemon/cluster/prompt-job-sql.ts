/**
 * The two statements agentd runs on pg-boss's job table itself, because pg-boss 10's own
 * calls cannot say them. They follow the table as pg-boss 10.4.2 defines it (the version
 * pinned in package.json; its src/plans.js: fetchNextJob, failJobs): rows of one queue
 * share `name`, a job waits in `created` or `retry`, runs in `active`, and a queue with the
 * `singleton` policy holds at most one active job per `singleton_key` (a unique index).
 * Upgrading pg-boss means reading these again against its plans.js.
 */

/**
 * Takes the next job this daemon may run and marks it active, taken by this daemon:
 * - the oldest waiting job of a session with no job active and no older job waiting (the
 *   session's jobs run one at a time, in the order queued), so a busy session's second job
 *   does not hold up the other sessions' jobs behind it, as pg-boss's own fetch does (it
 *   takes the oldest job and finds nothing when that one's session is busy);
 * - of a session whose folder (`data.cwd`) is under one of the daemon's roots, unless its
 *   roots are empty (it serves every folder);
 * - recording who took it in `output.takenBy` (overwritten by the job's result when it
 *   ends), so that the job of a daemon that died can be given to another (failGoneTakersSql).
 * Parameters: $1 the queue, $2 this daemon's id, $3 its roots (text[], normalized without
 * trailing slash; `/` serves every folder).
 */
export function fetchPromptJobSql(schema: string): string {
  // Waiting jobs are walked oldest first through agentd_job_waiting_order, each one's
  // session checked through agentd_job_waiting_session (an older job waiting) and pg-boss's
  // unique index of active singleton jobs (job_i2, whose expression the condition repeats):
  // index probes per job passed over, never a scan of the queue per job.
  return `
    WITH next AS (
      SELECT j.id
      FROM ${schema}.job j
      WHERE j.name = $1
        AND j.state < 'active'
        AND j.start_after < now()
        AND (cardinality($3::text[]) = 0 OR EXISTS (
          SELECT 1 FROM unnest($3::text[]) AS r(root)
          WHERE r.root = '/' OR j.data->>'cwd' = r.root OR starts_with(j.data->>'cwd', r.root || '/')
        ))
        AND NOT EXISTS (
          SELECT 1 FROM ${schema}.job a
          WHERE a.name = $1 AND a.state = 'active' AND a.policy = 'singleton'
            AND COALESCE(a.singleton_key, '') = COALESCE(j.singleton_key, '')
        )
        AND NOT EXISTS (
          SELECT 1 FROM ${schema}.job b
          WHERE b.name = $1 AND b.state < 'active' AND b.singleton_key = j.singleton_key
            AND (b.created_on, b.id) < (j.created_on, j.id)
        )
      ORDER BY j.created_on, j.id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${schema}.job j SET
      state = 'active',
      started_on = now(),
      retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END,
      output = jsonb_build_object('takenBy', $2::text)
    FROM next
    WHERE j.name = $1 AND j.id = next.id
    RETURNING j.id, j.data
  `;
}

/**
 * The two indexes fetchPromptJobSql walks, on pg-boss's job table (created once, with the
 * queue, by whichever daemon starts first; a partitioned table's index covers every queue's
 * partition, each holding only its waiting jobs). Without them each fetch sorted every
 * waiting job and scanned the queue once per job it passed over.
 */
export function promptJobIndexesSql(schema: string): string[] {
  return [
    `CREATE INDEX IF NOT EXISTS agentd_job_waiting_order ON ${schema}.job (name, created_on, id) WHERE state < 'active'`,
    `CREATE INDEX IF NOT EXISTS agentd_job_waiting_session ON ${schema}.job (name, singleton_key, created_on, id) WHERE state < 'active'`,
  ];
}

/**
 * Gives back the active jobs taken by daemons that are gone (found through job_i2, pg-boss's
 * index of active singleton jobs): each waits again at once (a
 * `retry`, counted against its retry limit like pg-boss's own failures; past the limit it
 * is `failed`). One statement, so two daemons sweeping at once give a job back once: the
 * second finds it no longer active. Parameters: $1 the queue, $2 the ids of the daemons
 * alive now (text[]). Returns id, state and the session of each job given back.
 */
export function failGoneTakersSql(schema: string): string {
  return `
    UPDATE ${schema}.job j SET
      state = CASE WHEN j.retry_count < j.retry_limit THEN 'retry'::${schema}.job_state ELSE 'failed'::${schema}.job_state END,
      start_after = now(),
      completed_on = CASE WHEN j.retry_count < j.retry_limit THEN NULL ELSE now() END,
      output = jsonb_build_object('value', jsonb_build_object(
        'message', 'daemon ' || (j.output->>'takenBy') || ', which took the job, is gone (no heartbeat for its lease)'))
    WHERE j.name = $1
      AND j.state = 'active'
      AND j.policy = 'singleton'
      AND j.output ? 'takenBy'
      AND NOT ((j.output->>'takenBy') = ANY($2::text[]))
    RETURNING j.id, j.state::text AS state, j.data->>'sessionId' AS "sessionId"
  `;
}

/** The active jobs by the daemon that took them (`daemon/cluster`): $1 the queue. */
export function runningByTakerSql(schema: string): string {
  return `
    SELECT j.output->>'takenBy' AS daemon, count(*)::int AS n
    FROM ${schema}.job j
    WHERE j.name = $1 AND j.state = 'active' AND j.policy = 'singleton' AND j.output ? 'takenBy'
    GROUP BY 1
  `;
}
