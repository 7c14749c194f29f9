import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { AcpServer, type AgentFactory } from "@agentclientprotocol/sdk/experimental/server";
import {
  createNodeHttpHandler,
  createNodeWebSocketUpgradeHandler,
} from "@agentclientprotocol/sdk/experimental/node";
import { WebSocketServer } from "ws";
import { log } from "../logger.js";
import { ACP_PATH, refusal, type Admission, type Refusal } from "./gate.js";
import { heartbeat } from "./heartbeat.js";
import { HttpLiveness } from "./http-liveness.js";

export interface ListeningServer {
  /** The WebSocket URL clients connect to (the same path serves Streamable HTTP). */
  readonly url: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const STATUS_TEXT: Record<Refusal, string> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
};

/**
 * ACP over Streamable HTTP and WebSocket on one port, through the ACP SDK's server
 * transport: `createAgent` serves each connection. Every request and upgrade passes the
 * gate (gate.ts) first; one it refuses reaches nothing of the agent.
 */
export async function listen(options: {
  host: string;
  port: number;
  admission: Admission;
  createAgent: AgentFactory;
  /** The largest message a client may send. */
  maxMessageBytes: number;
  /** A client that gave no sign of life this long is dropped (http-liveness.ts, heartbeat.ts). */
  dropAfterMs: number;
}): Promise<ListeningServer> {
  const acp = new AcpServer({ createAgent: options.createAgent });
  const webSockets = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  const handleHttp = createNodeHttpHandler(acp, { maxRequestBodyBytes: options.maxMessageBytes });
  // The SDK accepts each socket through this: it gets its heartbeat first.
  const upgrades = {
    on: webSockets.on.bind(webSockets),
    off: webSockets.off.bind(webSockets),
    handleUpgrade: (
      ...[request, socket, head, accept]: Parameters<WebSocketServer["handleUpgrade"]>
    ) =>
      webSockets.handleUpgrade(request, socket, head, (webSocket, req) => {
        heartbeat(webSocket, options.dropAfterMs);
        accept(webSocket, req);
      }),
  };
  const handleUpgrade = createNodeWebSocketUpgradeHandler(acp, upgrades);
  const liveness = new HttpLiveness(options.dropAfterMs, (id) => {
    log.info(`a Streamable HTTP client held no event stream open for a while: dropped`);
    // As the client's own DELETE would (the SDK's public way to end a connection).
    const request = new Request(`http://localhost${ACP_PATH}`, {
      method: "DELETE",
      headers: { "Acp-Connection-Id": id },
    });
    void acp.handleRequest(request).catch(() => undefined);
  });
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const refused = refusal(request, options.admission);
    if (refused === undefined) {
      liveness.observe(request, response);
      return handleHttp(request, response);
    }
    log.info(`refused a ${request.method ?? "request"} from ${peer(request.socket)}: ${refused}`);
    response.writeHead(refused, refused === 401 ? { "WWW-Authenticate": "Bearer" } : {}).end();
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refused = refusal(request, options.admission);
    if (refused === undefined) return handleUpgrade(request, socket, head);
    log.info(`refused an upgrade from ${peer(request.socket)}: ${refused}`);
    socket.end(
      `HTTP/1.1 ${refused} ${STATUS_TEXT[refused]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `ws://${host}:${address.port}${ACP_PATH}`,
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      liveness.stop();
      await acp.close();
      webSockets.close();
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}

function peer(socket: Socket): string {
  return `${socket.remoteAddress ?? "?"}:${socket.remotePort ?? "?"}`;
}
