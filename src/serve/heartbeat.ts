import type { WebSocket } from "ws";

/**
 * A WebSocket whose client stopped answering pings is ended: a network that failed without
 * a word (a laptop that slept, a NAT that forgot) would otherwise hold the connection, its
 * agent and its sessions for ever. A ping every half of `dropAfterMs`; a socket that let
 * one go unanswered by the next is terminated, which the SDK takes as a dropped connection.
 */
export function heartbeat(socket: WebSocket, dropAfterMs: number): void {
  let answered = true;
  socket.on("pong", () => (answered = true));
  const timer = setInterval(() => {
    if (!answered) {
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, dropAfterMs / 2);
  timer.unref();
  socket.once("close", () => clearInterval(timer));
}
