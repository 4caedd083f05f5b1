import type { Socket } from 'node:net';

/** How long a closed connection's socket may take to flush its last answer before it is destroyed. */
const FLUSH_GRACE_MS = 2000;

/**
 * The last answer gets a moment to leave; then the socket goes, and with it whatever the
 * peer kept sending into it. A closed connection holds nothing, even if its peer never hangs up.
 */
export function destroyAfterFlush(socket: Socket): void {
  if (socket.destroyed) return;
  if (!socket.writableEnded) socket.end();
  if (socket.writableFinished) return void socket.destroy();
  const timer = setTimeout(() => socket.destroy(), FLUSH_GRACE_MS);
  timer.unref();
  socket.once('finish', () => {
    clearTimeout(timer);
    socket.destroy();
  });
  socket.once('close', () => clearTimeout(timer));
}
