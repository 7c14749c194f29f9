// The lean bench client over WebSocket, to an agent served with `claude-agent-acp serve`:
// the same JSON-RPC handling as over stdio (BenchClient), one message per frame.
import { performance } from "node:perf_hooks";
import { WebSocket } from "ws";
import { BenchClient, type JsonRpcMessage } from "./agent-process.js";

export class WsBenchClient extends BenchClient {
  private constructor(private readonly socket: WebSocket) {
    super();
    socket.on("message", (data: Buffer) =>
      this.dispatch(JSON.parse(data.toString("utf8")) as JsonRpcMessage, performance.now()),
    );
    socket.on("close", () => {
      for (const [, p] of this.pending) p.reject(new Error("the WebSocket closed"));
      this.pending.clear();
    });
  }

  static connect(url: string, token: string): Promise<WsBenchClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
      socket.once("open", () => resolve(new WsBenchClient(socket)));
      socket.once("error", reject);
    });
  }

  close(): void {
    this.socket.close();
  }

  protected write(message: JsonRpcMessage): void {
    this.socket.send(JSON.stringify(message));
  }
}
