import http from 'node:http';

/**
 * The least a relay can do per vendor event, in a process of its own: POST to the vendor
 * and, for each read of the answer's body, nothing (`read`) or one 250-byte JSON line to
 * stdout (`write`), as agentd writes one `session/update` per read. argv: vendor URL, mode.
 * Prints `{"reads", "cpuUs"}` to stderr at the end (stdout carries the lines): its own CPU
 * from the first read on (process.cpuUsage, so its start-up is not counted).
 */
const [url, mode] = process.argv.slice(2) as [string, 'read' | 'write'];
const line = `${JSON.stringify({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: '019ac3f2-1234-7abc-9def-0123456789ab', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x'.repeat(70) } } },
})}\n`;
let reads = 0;
let start: NodeJS.CpuUsage | undefined;
const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
  response.on('data', () => {
    start ??= process.cpuUsage();
    reads += 1;
    if (mode === 'write') process.stdout.write(line);
  });
  response.on('end', () => {
    const used = process.cpuUsage(start);
    process.stderr.write(`${JSON.stringify({ reads, cpuUs: used.user + used.system })}\n`);
  });
});
request.end('{"stream":true}');
