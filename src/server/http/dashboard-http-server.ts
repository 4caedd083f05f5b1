import { createReadStream, existsSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import type { DaemonShell } from '../daemon-shell.js';
import { serveChannel } from '../wire/serve-connection.js';
import { destroyAfterFlush } from '../wire/transports/destroy-after-flush.js';
import type { TcpLimits } from '../wire/transports/tcp-limits.js';
import { ConnectionProbation } from './connection-probation.js';
import { DashboardSessions } from './dashboard-sessions.js';
import { allowedHosts, refuseHost, refuseOrigin } from './host-and-origin.js';
import { formatHostPort, type HttpAddress } from './http-address.js';
import { LoginTokens } from './login-tokens.js';
import { RefusalLog } from './refusal-log.js';
import { resolveStaticFile } from './resolve-static-file.js';
import { answerText, CONTENT_SECURITY_POLICY, setSecurityHeaders } from './security-headers.js';
import { WebSocketFrameChannel } from './websocket-frame-channel.js';

export interface DashboardHttpOptions {
  /** Where index.html and assets/ are. */
  webRoot: string;
  /** The TCP transport's limits, applied to HTTP connections alike. */
  limits: TcpLimits;
  /** The clock tokens and sessions expire by. */
  now?: () => number;
}

const NOT_LOGGED_IN = 'not logged in: run `agentd dashboard` for a login address';

/**
 * The page over HTTP and its WebSocket at `/rpc`, beside the daemon's other transports.
 * Every request must come to the bound Host; everything but `/login` needs the session
 * cookie a login token buys; the upgrade also needs the page's own Origin. The WebSocket
 * is served by the same connection code as a socket client. Until a connection has shown
 * the cookie or a token it is on TCP's probation (ConnectionProbation).
 */
export class DashboardHttpServer {
  private readonly tokens: LoginTokens;
  private readonly sessions: DashboardSessions;
  private readonly hosts: Set<string>;
  private readonly probation: ConnectionProbation;
  private readonly refusals: RefusalLog;

  private constructor(
    private readonly shell: DaemonShell,
    private readonly server: Server,
    private readonly websockets: WebSocketServer,
    readonly address: HttpAddress,
    private readonly options: DashboardHttpOptions,
  ) {
    this.tokens = new LoginTokens(options.now);
    this.sessions = new DashboardSessions(options.now);
    this.hosts = allowedHosts(address);
    this.probation = new ConnectionProbation(options.limits);
    this.refusals = new RefusalLog(shell.log, options.now);
  }

  /** Listens on the address (port 0: the OS picks; `address` then has the real one). */
  static async listen(shell: DaemonShell, address: HttpAddress, options: DashboardHttpOptions): Promise<DashboardHttpServer> {
    const server = createServer({ headersTimeout: options.limits.authTimeoutMs, requestTimeout: options.limits.authTimeoutMs });
    // The frame limit of every other transport; no compression, so a frame's size is what arrives.
    const websockets = new WebSocketServer({ noServer: true, maxPayload: shell.maxFrameBytes, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new Error(`${formatHostPort(address.host, address.port)} is in use by another program: give another port (--http, server.http), or 0 for any free one`)
            : error,
        ),
      );
      server.listen(address.port, address.host, () => {
        server.removeAllListeners('error');
        resolve();
      });
    });
    const bound = server.address();
    const port = typeof bound === 'object' && bound ? bound.port : address.port;
    const dashboard = new DashboardHttpServer(shell, server, websockets, { host: address.host, port }, options);
    server.on('error', (error) => shell.log(`http: ${error.message}`));
    server.on('connection', (socket: Socket) => dashboard.accept(socket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => dashboard.answer(request, response));
    server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => dashboard.upgrade(request, socket, head));
    return dashboard;
  }

  /** `http://HOST:PORT`. */
  get origin(): string {
    return `http://${formatHostPort(this.address.host, this.address.port)}`;
  }

  /** A fresh single-use login address. */
  mintLogin(): { url: string; expiresAt: string } {
    const { token, expiresAt } = this.tokens.mint();
    return { url: `${this.origin}/login?token=${token}`, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Stops listening and drops every connection (WebSocket clients are closed with the daemon's other clients). */
  async close(): Promise<void> {
    for (const client of this.websockets.clients) client.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const refused = this.probation.admit(socket);
    if (!refused) return;
    this.refusals.refused(`http: refused a connection from ${socket.remoteAddress ?? '?'}: ${refused}`);
    rawAnswer(socket, 503, `${refused}; try again later`);
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const host = request.headers.host;
    const wrongHost = refuseHost(host, this.hosts);
    const path = (request.url ?? '/').split('?')[0]!;
    if (wrongHost) return this.refuse(request, response, 421, wrongHost);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return answerText(response, 405, `${request.method} is not served here: only GET and HEAD`, { Allow: 'GET, HEAD', Connection: 'close' });
    }
    if (path === '/login') return this.login(request, response);
    if (!this.sessions.check(request.headers.cookie)) return answerText(response, 401, NOT_LOGGED_IN);
    this.probation.pass(request.socket);
    if (path === '/rpc') return answerText(response, 426, '/rpc is the page\'s WebSocket: connect with a WebSocket upgrade', { Upgrade: 'websocket' });
    if ((path === '/' || path === '/index.html') && !existsSync(join(this.options.webRoot, 'index.html'))) {
      return answerText(response, 503, 'the page is not built: run npm run build');
    }
    const file = resolveStaticFile(this.options.webRoot, path);
    if (!file) return answerText(response, 404, `nothing at ${path.slice(0, 200)}`);
    setSecurityHeaders(response);
    response.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.size,
      // The page always fresh (it names the current assets); assets checked each time, cheap on loopback.
      'Cache-Control': file.contentType.startsWith('text/html') ? 'no-store' : 'no-cache',
    });
    if (request.method === 'HEAD') return void response.end();
    createReadStream(file.path)
      .on('error', () => response.destroy())
      .pipe(response);
  }

  /** `GET /login?token=…`: a valid token, once, buys the session cookie. */
  private login(request: IncomingMessage, response: ServerResponse): void {
    // A HEAD (a link preview) must not spend the token.
    if (request.method !== 'GET') return answerText(response, 405, 'the login address is opened with GET', { Allow: 'GET' });
    const token = new URLSearchParams((request.url ?? '').split('?')[1] ?? '').get('token');
    if (!token || !this.tokens.redeem(token)) {
      return this.refuse(request, response, 401, 'this login address is wrong, used or expired (each works once, for 10 minutes): run `agentd dashboard` for a fresh one');
    }
    this.probation.pass(request.socket);
    this.shell.log(`http: a browser logged in from ${request.socket.remoteAddress ?? '?'}`);
    setSecurityHeaders(response);
    response.writeHead(303, { Location: '/', 'Set-Cookie': DashboardSessions.setCookie(this.sessions.open()), 'Cache-Control': 'no-store', 'Content-Length': 0 });
    response.end();
  }

  private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    socket.on('error', () => undefined);
    const host = request.headers.host;
    const path = (request.url ?? '/').split('?')[0]!;
    const wrongHost = refuseHost(host, this.hosts);
    if (wrongHost) return this.refuseUpgrade(socket, 421, wrongHost);
    if (path !== '/rpc') return rawAnswer(socket, 404, `no WebSocket at ${path.slice(0, 200)}; the page's is /rpc`);
    if (!this.sessions.check(request.headers.cookie)) return rawAnswer(socket, 401, NOT_LOGGED_IN);
    const wrongOrigin = refuseOrigin(request.headers.origin, host!);
    if (wrongOrigin) return this.refuseUpgrade(socket, 403, wrongOrigin);
    this.websockets.handleUpgrade(request, socket, head, (websocket) => {
      this.probation.pass(socket);
      const { client } = serveChannel(this.shell, (handlers) => new WebSocketFrameChannel(websocket, this.shell.maxFrameBytes, handlers), { kind: 'http' });
      // A close frame the peer never answers must not keep the socket.
      client.rpc.onClose(() => destroyAfterFlush(socket));
    });
  }

  private refuse(request: IncomingMessage, response: ServerResponse, status: number, reason: string): void {
    this.refusals.refused(`http: refused ${request.method} ${(request.url ?? '/').split('?')[0]!.slice(0, 200)} from ${request.socket.remoteAddress ?? '?'}: ${reason}`);
    answerText(response, status, reason, { Connection: 'close' });
  }

  private refuseUpgrade(socket: Socket, status: number, reason: string): void {
    this.refusals.refused(`http: refused a WebSocket from ${socket.remoteAddress ?? '?'}: ${reason}`);
    rawAnswer(socket, status, reason);
  }
}

/** An answer written straight to the socket (before or instead of HTTP parsing), then the socket closed. */
function rawAnswer(socket: Socket, status: number, text: string): void {
  const body = `${text}\n`;
  socket.on('error', () => undefined);
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: text/plain; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Content-Security-Policy: ${CONTENT_SECURITY_POLICY}`,
      'X-Content-Type-Options: nosniff',
      'Referrer-Policy: no-referrer',
      'Cache-Control: no-store',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  destroyAfterFlush(socket);
}
