// An agent served on the network (claude-agent-acp serve), reached by URL with a token.
import { readFile } from "node:fs/promises";
import type { Stream } from "@agentclientprotocol/sdk";
import type { AgentExit, AgentProcess } from "./agent-process.js";

/** The path the agent serves at when a URL names none. */
const ACP_PATH = "/acp";

/**
 * The URL as the client connects to it: ws(s):// over WebSocket, http(s):// over
 * Streamable HTTP; a URL without a path gets /acp. Anything else is an error that says so.
 */
export function agentUrl(text: string): { url: string; transport: "websocket" | "http" } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--url ${text}: not a URL (try ws://HOST:PORT/acp)`);
  }
  const transport =
    url.protocol === "ws:" || url.protocol === "wss:"
      ? "websocket"
      : url.protocol === "http:" || url.protocol === "https:"
        ? "http"
        : undefined;
  if (!transport)
    throw new Error(`--url ${text}: must start with ws://, wss://, http:// or https://`);
  if (url.pathname === "/") url.pathname = ACP_PATH;
  return { url: url.href, transport };
}

/** The token: the file's first line. */
export async function readToken(file: string): Promise<string> {
  const token = (await readFile(file, "utf8")).split(/\r?\n/, 1)[0]!.trim();
  if (!token) throw new Error(`--token-file ${file}: its first line is empty`);
  return token;
}

/**
 * The agent at `url`, as the terminal client uses a spawned one: its stream; `exited`
 * settles when the client stops it (a connection that fails fails the client's requests,
 * which say why); there is no stderr to show.
 */
export async function connectAgent(text: string, token: string): Promise<AgentProcess> {
  const stream = await remoteStream(text, token);
  let stopped!: (exit: AgentExit) => void;
  const exited = new Promise<AgentExit>((resolve) => (stopped = resolve));
  return {
    stream,
    exited,
    stderrTail: () => "",
    stop: () => {
      stopped({ code: 0, signal: null });
      return Promise.resolve();
    },
  };
}

/** ACP to the agent at `text` (see agentUrl), through the ACP SDK's client transports. */
export async function remoteStream(text: string, token: string): Promise<Stream> {
  const { url, transport } = agentUrl(text);
  const headers = { Authorization: `Bearer ${token}` };
  if (transport === "http") {
    const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
    return createHttpStream(url, { headers });
  }
  const [{ createWebSocketStream }, { WebSocket }] = await Promise.all([
    import("@agentclientprotocol/sdk/experimental/ws-client"),
    // Node 20 has no WebSocket of its own.
    import("ws"),
  ]);
  return createWebSocketStream(url, {
    headers,
    WebSocket: WebSocket as unknown as NonNullable<
      Parameters<typeof createWebSocketStream>[1]
    >["WebSocket"],
  });
}
