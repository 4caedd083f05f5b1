import { startTaggedChatServer } from './tagged-chat-server.js';

/**
 * The loopback vendor as a process of its own (`node vendor-process-main.js CHUNKS`): it
 * prints its URL as the first line of stdout, then `untagged` for each request that
 * carried no session tag, and stops when stdin closes. Out of the benchmark's process
 * so that writing a hundred bursts of SSE frames does not hold up the clients' reading.
 */
const server = await startTaggedChatServer(Number(process.argv[2]), () => process.stdout.write('untagged\n'));
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
