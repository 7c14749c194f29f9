import type { IncomingMessage, ServerResponse } from "node:http";

const CONNECTION_ID = "acp-connection-id";

/**
 * Which Streamable HTTP connections still have a client. A WebSocket connection ends with
 * its socket; an HTTP one ends only with the client's DELETE, so a client that crashed or
 * lost its network would hold its connection (its agent, its sessions, their Claude Code)
 * for ever. A live client holds an event stream (a GET) open on its connection: one with
 * none open for `lingerMs` (from its initialize, or from its last stream's end) is closed as
 * a DELETE would, and its sessions are dealt with as any dropped connection's.
 */
export class HttpLiveness {
  private readonly connections = new Map<string, { open: number; timer?: NodeJS.Timeout }>();

  constructor(
    private readonly lingerMs: number,
    private readonly close: (connectionId: string) => void,
  ) {}

  /** Follows one request through to its response's end. */
  observe(request: IncomingMessage, response: ServerResponse): void {
    const header = request.headers[CONNECTION_ID];
    const id = typeof header === "string" ? header : undefined;
    if (request.method === "DELETE" && id) return this.forget(id);
    if (request.method === "GET" && id) {
      // Its stream may open before its initialize's answer is seen to finish here.
      this.streamOpened(id);
      response.once("close", () => this.streamClosed(id));
      return;
    }
    if (request.method === "POST" && !id) {
      // An initialize: its answer names the new connection.
      response.once("finish", () => {
        const created = response.getHeader(CONNECTION_ID);
        if (typeof created === "string" && !this.connections.has(created)) {
          this.connections.set(created, { open: 0 });
          this.streamClosed(created, false);
        }
      });
    }
  }

  /** The server stops. */
  stop(): void {
    for (const id of [...this.connections.keys()]) this.forget(id);
  }

  private streamOpened(id: string): void {
    const state = this.connections.get(id) ?? { open: 0 };
    this.connections.set(id, state);
    state.open += 1;
    clearTimeout(state.timer);
    state.timer = undefined;
  }

  private streamClosed(id: string, counted = true): void {
    const state = this.connections.get(id);
    if (!state) return;
    if (counted) state.open -= 1;
    if (state.open > 0) return;
    state.timer = setTimeout(() => {
      this.forget(id);
      this.close(id);
    }, this.lingerMs);
  }

  private forget(id: string): void {
    clearTimeout(this.connections.get(id)?.timer);
    this.connections.delete(id);
  }
}
