// Small MCP servers for end-to-end tests of client-provided MCP servers: the stdio fixture
// script, and one HTTP server that speaks both remote transports (streamable HTTP at /mcp,
// the older HTTP+SSE transport at /sse + /messages). Each offers one tool, `echo`.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fileURLToPath } from "node:url";

/** `node <this> ` is a stdio MCP server with the tools `echo` and `pixel`. */
export const STDIO_MCP_SERVER = fileURLToPath(
  new URL("../../fixtures/e2e-turns/echo-mcp-server.mjs", import.meta.url),
);

interface JsonRpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
}

export interface McpCall {
  transport: "http" | "sse";
  method: string;
  params: Record<string, unknown> | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export interface HttpMcpServer {
  /** Streamable HTTP endpoint. */
  httpUrl: string;
  /** HTTP+SSE endpoint (the stream; messages are posted where it says). */
  sseUrl: string;
  /** Every JSON-RPC request or notification received, in order. */
  readonly calls: McpCall[];
  close(): Promise<void>;
}

const ECHO_TOOL = {
  name: "echo",
  description: "Echoes the text back.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  },
};

function result(message: JsonRpcMessage, serverName: string): unknown {
  switch (message.method) {
    case "initialize":
      return {
        protocolVersion:
          typeof message.params?.protocolVersion === "string"
            ? message.params.protocolVersion
            : "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: serverName, version: "1.0.0" },
      };
    case "tools/list":
      return { tools: [ECHO_TOOL] };
    case "tools/call": {
      const args = message.params?.arguments as Record<string, unknown> | undefined;
      const text = typeof args?.text === "string" ? args.text : "";
      return { content: [{ type: "text", text: `${serverName} echo: ${text}` }] };
    }
    default:
      return {};
  }
}

function reply(message: JsonRpcMessage, serverName: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id: message.id, result: result(message, serverName) });
}

async function readJson(req: IncomingMessage): Promise<JsonRpcMessage[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  return (Array.isArray(parsed) ? parsed : [parsed]) as JsonRpcMessage[];
}

const isRequest = (m: JsonRpcMessage): boolean => m.id !== undefined && m.id !== null;

/** Starts the HTTP MCP server on 127.0.0.1 (port 0). */
export async function startHttpMcpServer(): Promise<HttpMcpServer> {
  const calls: McpCall[] = [];
  const streams = new Map<string, ServerResponse>();
  const sockets = new Set<Socket>();

  const record = (transport: McpCall["transport"], req: IncomingMessage, m: JsonRpcMessage) =>
    calls.push({ transport, method: m.method ?? "", params: m.params, headers: req.headers });

  async function streamableHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") {
      res.writeHead(405).end(); // no server-initiated stream
      return;
    }
    const messages = await readJson(req);
    for (const m of messages) record("http", req, m);
    const requests = messages.filter(isRequest);
    if (!requests.length) {
      res.writeHead(202).end();
      return;
    }
    const body = requests.map((m) => reply(m, "remote-http"));
    res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
    res.end(body.length === 1 ? body[0] : `[${body.join(",")}]`);
  }

  function sseStream(res: ServerResponse): void {
    const id = randomUUID();
    streams.set(id, res);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
    res.on("close", () => streams.delete(id));
  }

  async function sseMessage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const stream = streams.get(url.searchParams.get("sessionId") ?? "");
    if (!stream) {
      res.writeHead(404).end();
      return;
    }
    const messages = await readJson(req);
    res.writeHead(202).end();
    for (const m of messages) {
      record("sse", req, m);
      if (isRequest(m)) stream.write(`event: message\ndata: ${reply(m, "remote-sse")}\n\n`);
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const route =
      url.pathname === "/mcp"
        ? streamableHttp(req, res)
        : url.pathname === "/sse" && req.method === "GET"
          ? Promise.resolve(sseStream(res))
          : url.pathname === "/messages" && req.method === "POST"
            ? sseMessage(req, res, url)
            : Promise.resolve(void res.writeHead(404).end());
    route.catch(() => {
      if (!res.headersSent) res.writeHead(400);
      res.end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    httpUrl: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    calls,
    close: async () => {
      for (const stream of streams.values()) stream.end();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
