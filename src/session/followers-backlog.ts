/** How far behind one follower's output is: a promise while it is backed up (JsonRpcConnection.backlog), undefined when it keeps up. */
export type FollowerBacklog = () => Promise<void> | undefined;

/** While any follower of a session is backed up, a promise for all of them to catch up; undefined when none is. */
export function followersBacklog(backlogs: Iterable<FollowerBacklog>): Promise<void> | undefined {
  let waits: Array<Promise<void>> | undefined;
  for (const backlog of backlogs) {
    const wait = backlog();
    if (wait) (waits ??= []).push(wait);
  }
  return waits && Promise.all(waits).then(() => undefined);
}
