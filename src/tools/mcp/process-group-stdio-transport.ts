import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killProcessGroup } from '../shell/kill-process-group.js';

export interface StdioServerParams {
  command: string;
  args: string[];
  /** On top of the SDK's safe defaults (PATH, HOME, USER, …), never the daemon's whole environment. */
  env: Record<string, string>;
  cwd?: string;
  /** SIGTERM to SIGKILL; 2 s when absent. */
  graceMs?: number;
}

/**
 * The MCP stdio transport (newline-delimited JSON-RPC on the child's stdin/stdout, as the
 * SDK's StdioClientTransport) with one difference: the server runs in its own process
 * group, and closing stops the whole group — SIGTERM, then SIGKILL after a short grace.
 * The SDK's transport signals only the child it spawned, so `npx some-server` left the
 * real server (npx's child) running, and it first waits 2 s for the server to notice the
 * closed stdin, which a server hung in `initialize` never does.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, available before start so early lines are kept. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly params: StdioServerParams) {}

  /** The server's pid (also its process group id) once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the MCP server transport was already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group, so stopping it stops what it started too.
        detached: true,
        ...(this.params.cwd ? { cwd: this.params.cwd } : {}),
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('the MCP server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server's whole process group; resolves once the server exited or was killed. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    child.stdin?.end();
    await killProcessGroup(child.pid, this.params.graceMs ?? 2000);
    // After SIGKILL the close event follows at once; never wait on a process we cannot see.
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
    this.buffer.clear();
  }

  private receive(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}
