import type { Readable, Writable } from 'node:stream';
import type { MessageReader, MessageWriter } from 'vscode-jsonrpc/node.js';
import { NdjsonMessageReader } from '../../../protocol/wire/ndjson-message-reader.js';
import { NdjsonMessageWriter } from '../../../protocol/wire/ndjson-message-writer.js';
import { AgentdConnection, type AgentdClientOptions } from './agentd-connection.js';
import { installProtocolMethods, type MethodSender, type ProtocolMethods } from './protocol-methods.js';

/** Interface half of the class: the derived convenience methods (`newSession`, `prompt`, ...). */
export interface AgentdClient extends ProtocolMethods {}

/**
 * A typed agentd client with one convenience method per protocol method (`newSession`,
 * `prompt`, `steer`, ...), installed from the method table. Built over a duplex byte stream
 * speaking NDJSON JSON-RPC 2.0 (the daemon's default framing: a child process's stdio, a unix
 * socket, a TCP socket), or over any vscode-jsonrpc MessageReader/MessageWriter pair.
 */
export class AgentdClient extends AgentdConnection {
  constructor(input: Readable, output: Writable, options?: AgentdClientOptions);
  constructor(reader: MessageReader, writer: MessageWriter, options?: AgentdClientOptions);
  constructor(input: Readable | MessageReader, output: Writable | MessageWriter, options: AgentdClientOptions = {}) {
    if (isMessageReader(input) && isMessageWriter(output)) {
      super(input, output, options);
      return;
    }
    // Ids of this side's requests still waiting: an answer to any other id is a protocol error.
    const awaited = new Set<string | number>();
    super(new NdjsonMessageReader(input as Readable, awaited), new NdjsonMessageWriter(output as Writable, awaited), options);
  }
}

function isMessageReader(value: Readable | MessageReader): value is MessageReader {
  return typeof (value as MessageReader).listen === 'function';
}

function isMessageWriter(value: Writable | MessageWriter): value is MessageWriter {
  return typeof (value as MessageWriter).write === 'function' && typeof (value as MessageWriter).onClose === 'function';
}

// The typed generic signatures are wider at runtime: every method name is a plain string.
installProtocolMethods(AgentdClient.prototype as unknown as MethodSender);
