/**
 * `agentd sessions | head -2`: the reader closing the pipe early is its choice, not a
 * crash. A write to a closed stdout or stderr (EPIPE) ends the command at once with
 * exit 0 and nothing printed, where Node would throw an unhandled 'error' event with a
 * stack trace. Other write errors stay errors. Not for `serve` and `acp`, whose
 * transports own stdout and shut down in order when their peer goes.
 */
export function exitQuietlyWhenOutputCloses(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(0);
    });
  }
}
