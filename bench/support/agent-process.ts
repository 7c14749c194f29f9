// The built agent (node dist/index.js) over stdio, with a lean bench client: newline-
// delimited JSON-RPC parsed with JSON.parse and nothing else, so the client adds as
// little as possible to what is measured (no schema validation, no transcript).
// Permission requests are answered at once with the allow-once option.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { performance } from "node:perf_hooks";
import { requireBuiltAgent } from "./paths.js";
import { groupKiller, track, untrack } from "./cleanup.js";

export interface Timed<T> {
  result: T;
  /** performance.now() when the request was written. */
  sentAt: number;
  /** performance.now() when the chunk holding the response was read. */
  receivedAt: number;
}

export interface SessionUpdateParams {
  sessionId: string;
  update: { sessionUpdate: string; content?: { type: string; text?: string } } & Record<
    string,
    unknown
  >;
}

export type UpdateListener = (params: SessionUpdateParams, at: number) => void;
export type PermissionListener = (
  params: { sessionId: string; toolCall: unknown },
  at: number,
) => void;

export interface JsonRpcMessage {
  jsonrpc?: "2.0";
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

interface PermissionOption {
  optionId: string;
  kind: string;
}

export class JsonRpcError extends Error {
  constructor(
    readonly method: string,
    readonly error: { code: number; message: string; data?: unknown },
  ) {
    super(`${method} failed: ${error.code} ${error.message}`);
  }
}

/**
 * The lean bench client's JSON-RPC, whatever carries it: requests timed, updates to
 * listeners, permission requests answered with allow-once. A subclass sends the messages
 * (`write`) and hands on those it reads (`dispatch`).
 */
export abstract class BenchClient {
  /** Permission requests answered so far. */
  permissionsAnswered = 0;
  private nextId = 1;
  protected readonly pending = new Map<
    number,
    {
      method: string;
      sentAt: number;
      resolve: (t: Timed<unknown>) => void;
      reject: (e: Error) => void;
    }
  >();
  private readonly listeners = new Set<UpdateListener>();
  private readonly permissionListeners = new Set<PermissionListener>();

  protected abstract write(message: JsonRpcMessage): void;

  onUpdate(listener: UpdateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called as each permission request arrives (before it is answered). */
  onPermission(listener: PermissionListener): () => void {
    this.permissionListeners.add(listener);
    return () => this.permissionListeners.delete(listener);
  }

  request<T = unknown>(method: string, params: unknown): Promise<Timed<T>> {
    const id = this.nextId++;
    return new Promise<Timed<T>>((resolve, reject) => {
      const sentAt = performance.now();
      this.pending.set(id, {
        method,
        sentAt,
        resolve: resolve as (t: Timed<unknown>) => void,
        reject,
      });
      this.write({ jsonrpc: "2.0", id, method, params });
    });
  }

  initialize(): Promise<Timed<unknown>> {
    return this.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: "claude-agent-acp-bench", version: "0.0.0" },
    });
  }

  async newSession(cwd: string): Promise<Timed<{ sessionId: string }>> {
    return this.request<{ sessionId: string }>("session/new", { cwd, mcpServers: [] });
  }

  prompt(sessionId: string, text: string): Promise<Timed<{ stopReason: string }>> {
    return this.request<{ stopReason: string }>("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  }

  async closeSession(sessionId: string): Promise<void> {
    await this.request("session/close", { sessionId });
  }

  protected dispatch(message: JsonRpcMessage, at: number): void {
    if (message.method === undefined) {
      const pending = typeof message.id === "number" ? this.pending.get(message.id) : undefined;
      if (!pending) return;
      this.pending.delete(message.id as number);
      if (message.error) pending.reject(new JsonRpcError(pending.method, message.error));
      else pending.resolve({ result: message.result, sentAt: pending.sentAt, receivedAt: at });
      return;
    }
    if (message.method === "session/update") {
      for (const listener of this.listeners) listener(message.params as SessionUpdateParams, at);
      return;
    }
    if (message.id === undefined || message.id === null) return; // another notification
    if (message.method === "session/request_permission") {
      const params = message.params as {
        sessionId: string;
        toolCall: unknown;
        options: PermissionOption[];
      };
      for (const listener of this.permissionListeners) listener(params, at);
      const options = params.options;
      const allow = options.find((o) => o.kind === "allow_once") ?? options[0];
      this.permissionsAnswered++;
      this.write({
        jsonrpc: "2.0",
        id: message.id,
        result: allow
          ? { outcome: { outcome: "selected", optionId: allow.optionId } }
          : { outcome: { outcome: "cancelled" } },
      });
      return;
    }
    this.write({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32601, message: `the bench client does not serve ${message.method}` },
    });
  }
}

export class BenchAgent extends BenchClient {
  readonly pid: number;
  readonly child: ChildProcessWithoutNullStreams;
  /** performance.now() just before the agent was spawned. */
  readonly spawnedAt: number;
  private buffer = "";
  private stderr = "";
  private readonly exited: Promise<void>;
  private readonly killGroup: () => void;

  constructor(options: { env: Record<string, string>; cwd: string; args?: readonly string[] }) {
    super();
    // BENCH_AGENT_ENTRY runs another build of the agent (e.g. a copy of dist/ from a branch).
    const entry = process.env.BENCH_AGENT_ENTRY ?? requireBuiltAgent();
    // detached: the agent leads its own process group, so one kill reaches Claude Code too.
    // BENCH_AGENT_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the agent.
    const nodeArgs = (process.env.BENCH_AGENT_NODE_ARGS ?? "").split(" ").filter(Boolean);
    // BENCH_AGENT_ENV ("NAME=value NAME2=value") adds to the agent's env (not the baseline's).
    const extraEnv = Object.fromEntries(
      (process.env.BENCH_AGENT_ENV ?? "")
        .split(" ")
        .filter((kv) => kv.includes("="))
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    );
    this.spawnedAt = performance.now();
    this.child = spawn(process.execPath, [...nodeArgs, entry, ...(options.args ?? [])], {
      cwd: options.cwd,
      env: { ...options.env, ...extraEnv },
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const pid = this.child.pid;
    if (pid === undefined) throw new Error(`could not start the agent (${entry})`);
    this.pid = pid;
    this.killGroup = groupKiller(pid);
    track(this.killGroup);
    this.exited = new Promise((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.on("error", () => undefined);
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (text: string) => {
      this.stderr = (this.stderr + text).slice(-20_000);
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (text: string) => this.read(text, performance.now()));
    void this.exited.then(() => {
      for (const [, p] of this.pending) p.reject(new Error(`the agent exited\n${this.log()}`));
      this.pending.clear();
    });
  }

  /** The tail of the agent's stderr. */
  log(): string {
    return this.stderr;
  }

  /** Ends stdin (a client going away), then kills the process group after `graceMs`. */
  async stop(graceMs = 1_000): Promise<void> {
    this.child.stdin.end();
    await Promise.race([this.exited, sleep(graceMs)]);
    this.killGroup();
    untrack(this.killGroup);
    await Promise.race([this.exited, sleep(2_000)]);
  }

  protected write(message: JsonRpcMessage): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private read(text: string, at: number): void {
    this.buffer += text;
    let start = 0;
    for (;;) {
      const end = this.buffer.indexOf("\n", start);
      if (end < 0) break;
      const line = this.buffer.slice(start, end);
      start = end + 1;
      if (line.trim() !== "") this.dispatch(JSON.parse(line) as JsonRpcMessage, at);
    }
    this.buffer = this.buffer.slice(start);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
