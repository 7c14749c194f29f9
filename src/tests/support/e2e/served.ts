import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  client,
  methods,
  type ClientConnection,
  type ClientContext,
  type InitializeResponse,
  type NewSessionResponse,
  type PromptResponse,
  type Stream,
} from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import {
  createWebSocketStream,
  type WebSocketConstructor,
} from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";
import { startScriptedApi, type Scenario, type TurnSpec } from "../../../scripted-api/index.js";
import { spawnAgent, type AgentProcess } from "./agent-process.js";
import { agentEnv, printReportIfTheTestFails } from "./harness.js";
import { Permissions, type PermissionPolicy } from "./permissions.js";
import { killSurvivors } from "./processes.js";
import { createSandbox, type Sandbox } from "./sandbox.js";
import type { ScriptedApi } from "../../../scripted-api/index.js";
import { UpdateLog } from "./updates.js";
import { poll, startClock } from "./wait.js";

export type Transport = "websocket" | "http";

/** The token the served agent is started with (its --token-file). */
export const SERVED_TOKEN = "e2e-token-0123456789abcdef";

/**
 * The built agent serving ACP on 127.0.0.1 (`claude-agent-acp serve`), with real Claude
 * Code against the scripted API, and clients that connect to it over WebSocket or
 * Streamable HTTP through the ACP SDK's own client transports.
 */
export class Served {
  private readonly clients = new Set<ServedClient>();
  private stopped: Promise<void> | undefined;

  constructor(
    readonly api: ScriptedApi,
    readonly sandbox: Sandbox,
    readonly agent: AgentProcess,
    readonly marker: string,
    /** The WebSocket URL; Streamable HTTP is the same with http:. */
    readonly url: string,
  ) {}

  get cwd(): string {
    return this.sandbox.cwd;
  }

  /** A client on a new connection; not initialized. */
  connect(transport: Transport, permission?: PermissionPolicy): ServedClient {
    const connected = new ServedClient(this.url, transport, permission);
    this.clients.add(connected);
    return connected;
  }

  log(): string {
    return this.agent.log();
  }

  report(): string {
    return `--- served agent stderr (tail) ---\n${this.log().slice(-20_000)}`;
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      for (const connected of this.clients) connected.close();
      await this.agent.killGroup(500);
      await killSurvivors(this.marker, 1_000);
      await this.api.close();
      await this.sandbox.remove();
    })();
    return this.stopped;
  }
}

/** One client connection to the served agent, recording what it receives. */
export class ServedClient {
  readonly updates: UpdateLog;
  readonly permissions: Permissions;
  readonly client: ClientContext;
  private readonly connection: ClientConnection;
  /** The client's WebSocket, to drop the connection as a network failure would. */
  private socket: WebSocket | undefined;
  /** Aborted to drop a Streamable HTTP client's connection. */
  private readonly network = new AbortController();

  constructor(url: string, transport: Transport, permission?: PermissionPolicy) {
    const clock = startClock();
    this.updates = new UpdateLog(clock);
    this.permissions = new Permissions(clock, permission);
    const headers = { Authorization: `Bearer ${SERVED_TOKEN}` };
    const app = client({ name: "claude-agent-acp-served-e2e" })
      .onNotification(methods.client.session.update, ({ params }) => this.updates.add(params))
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
        this.permissions.answer(params, signal),
      );
    this.connection = app.connect(this.stream(url, transport, headers));
    this.client = this.connection.agent;
  }

  private stream(url: string, transport: Transport, headers: Record<string, string>): Stream {
    if (transport === "http") {
      // Every request of the client goes through this fetch, so that `drop()` can fail them
      // all at once, as a network that went away does (no DELETE reaches the agent).
      const fetchDroppable: typeof fetch = (input, init) => {
        if (this.network.signal.aborted) return Promise.reject(new Error("network down"));
        const signal = init?.signal
          ? AbortSignal.any([init.signal, this.network.signal])
          : this.network.signal;
        return fetch(input, { ...init, signal });
      };
      return createHttpStream(url.replace(/^ws:/, "http:"), { headers, fetch: fetchDroppable });
    }
    // Node 20 has no WebSocket of its own; the `ws` package's, recorded to be dropped.
    const recording = class extends WebSocket {
      constructor(address: string, protocols?: string | string[], options?: object) {
        super(address, protocols, options);
        // eslint-disable-next-line @typescript-eslint/no-this-alias
        recorded = this;
      }
    };
    let recorded: WebSocket | undefined;
    const stream = createWebSocketStream(url, {
      headers,
      WebSocket: recording as unknown as WebSocketConstructor,
    });
    queueMicrotask(() => (this.socket = recorded));
    return stream;
  }

  initialize(): Promise<InitializeResponse> {
    return this.client.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: "claude-agent-acp-served-e2e", version: "0.0.0" },
    });
  }

  newSession(cwd: string): Promise<NewSessionResponse> {
    return this.client.request(methods.agent.session.new, { cwd, mcpServers: [] });
  }

  load(sessionId: string, cwd: string): Promise<unknown> {
    return this.client.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  }

  prompt(sessionId: string, text: string): Promise<PromptResponse> {
    return this.client.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  }

  /** The network fails: the socket goes without a close handshake, or every HTTP request fails. */
  drop(): void {
    this.network.abort();
    this.socket?.terminate();
  }

  /** The network goes silent: nothing more is read, so the agent's pings go unanswered. */
  goSilent(): void {
    if (!this.socket) throw new Error("goSilent: not a WebSocket client");
    this.socket.pause();
  }

  close(): void {
    this.permissions.stop();
    this.updates.stop();
    this.connection.close();
    this.socket?.terminate();
  }
}

/** Starts `claude-agent-acp serve` in a sandbox; stop it with `stop()`. */
export async function startServed(
  options: {
    scenario?: Scenario | TurnSpec[];
    args?: readonly string[];
    env?: Record<string, string | undefined>;
  } = {},
): Promise<Served> {
  const sandbox = await createSandbox();
  const api = await startScriptedApi(options.scenario ?? [], { cursor: "server" });
  const marker = randomUUID();
  const tokenFile = join(sandbox.root, "token");
  const urlFile = join(sandbox.root, "url");
  await writeFile(tokenFile, `${SERVED_TOKEN}\n`, { mode: 0o600 });
  const agent = spawnAgent({
    env: agentEnv(api, sandbox, marker, options.env),
    cwd: sandbox.root,
    args: ["serve", "--token-file", tokenFile, "--url-file", urlFile, ...(options.args ?? [])],
  });
  const url = await poll(
    async () => (await readFile(urlFile, "utf8").catch(() => "")).trim() || undefined,
    15_000,
    50,
  );
  if (!url) {
    await agent.killGroup(500);
    await api.close();
    await sandbox.remove();
    throw new Error(`the served agent wrote no URL file\n${agent.log()}`);
  }
  const served = new Served(api, sandbox, agent, marker, url);
  printReportIfTheTestFails(served);
  return served;
}
