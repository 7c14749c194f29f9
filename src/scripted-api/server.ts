// The HTTP server: routes, recording, script consumption and writing replies.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ScriptCursor } from "./cursor.js";
import { replyHeaders } from "./rate-limits.js";
import { defaultCutAfter, errorBody, httpFaultResponse, streamErrorEvent } from "./faults.js";
import { Recorder } from "./recording.js";
import { formatZodError, scriptTurnSchema, toScenario } from "./scenario.js";
import { classifyRequest } from "./side-requests.js";
import { defaultSideReply } from "./side-reply.js";
import { frame, requestedCacheTtl, turnToEvents, turnToMessage } from "./sse.js";
import type { RenderContext } from "./sse.js";
import type {
  RecordedRequest,
  RequestKind,
  Scenario,
  ScriptedApiOptions,
  ScriptTurn,
  Turn,
  TurnSpec,
} from "./types.js";
import { isRecord } from "../util/records.js";

export interface ScriptedApi {
  /** e.g. http://127.0.0.1:43123 — use as ANTHROPIC_BASE_URL. */
  url: string;
  port: number;
  /** Every request so far, live. */
  readonly requests: readonly RecordedRequest[];
  mainRequests(): RecordedRequest[];
  sideRequests(): RecordedRequest[];
  lastMainRequest(): RecordedRequest | undefined;
  waitForMainRequests(n: number, options?: { timeoutMs?: number }): Promise<RecordedRequest[]>;
  /** Append turns to the script (also reachable after it was exhausted). */
  enqueue(...turns: TurnSpec[]): void;
  /** Replace the scenario and rewind every cursor. */
  setScenario(scenario: Scenario | TurnSpec[]): void;
  /** Forget the requests recorded so far (a test harness reusing the API for its next test). */
  forgetRequests(): void;
  /** Stop listening and destroy open sockets (in-flight streams included). */
  close(): Promise<void>;
}

const DEFAULT_FALLBACK = "Done.";

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Rough token estimate (~4 characters per token) of what the model would read. */
function estimateInputTokens(body: unknown): number {
  if (!isRecord(body)) return 1;
  const { system, messages, tools } = body;
  return Math.max(1, Math.ceil(JSON.stringify({ system, messages, tools }).length / 4));
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function write(res: ServerResponse, data: string): Promise<void> {
  // Waiting for the flush makes a following socket cut deterministic.
  return new Promise((resolve) => res.write(data, () => resolve()));
}

function validateTurns(turns: TurnSpec[]): void {
  turns.forEach((t, i) => {
    if (typeof t === "function") return;
    const result = scriptTurnSchema.safeParse(t);
    if (!result.success) throw new Error(`invalid turn ${i}:\n${formatZodError(result.error)}`);
  });
}

export async function startScriptedApi(
  scenarioInput: Scenario | TurnSpec[],
  options: ScriptedApiOptions = {},
): Promise<ScriptedApi> {
  let scenario = toScenario(scenarioInput);
  validateTurns(scenario.turns);
  const cursor = new ScriptCursor(scenario.turns, options.cursor ?? "server");
  const recorder = new Recorder();
  const sockets = new Set<Socket>();
  let closed = false;

  const gone = (req: IncomingMessage, res: ServerResponse) =>
    closed || res.destroyed || req.socket.destroyed;

  async function streamTurn(
    req: IncomingMessage,
    res: ServerResponse,
    turn: Turn,
    ctx: RenderContext,
  ): Promise<void> {
    await sleep(turn.firstByteDelayMs ?? 0);
    if (gone(req, res)) return;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      ...replyHeaders(turn),
    });
    res.flushHeaders();
    const events = turnToEvents(turn, ctx);
    const fault = turn.fault;
    const stopAt = fault
      ? Math.min(fault.afterEvents ?? defaultCutAfter(events), events.length)
      : -1;
    for (const [i, e] of events.entries()) {
      if (i === stopAt) break;
      if (turn.delayMs && e.event === "content_block_delta") await sleep(turn.delayMs);
      if (gone(req, res)) return;
      await write(res, frame(e));
    }
    if (fault?.type === "cut") {
      req.socket.destroy();
      return;
    }
    if (fault?.type === "stream-error")
      await write(res, frame(streamErrorEvent(fault.errorType, fault.message)));
    res.end();
  }

  async function sendTurn(
    req: IncomingMessage,
    res: ServerResponse,
    turn: ScriptTurn,
    ctx: RenderContext,
    stream: boolean,
  ): Promise<void> {
    if (!("content" in turn)) {
      const r = httpFaultResponse(turn.fault);
      sendJson(res, r.status, r.body, r.headers);
      return;
    }
    if (stream) return streamTurn(req, res, turn, ctx);
    await sleep((turn.firstByteDelayMs ?? 0) + (turn.delayMs ?? 0));
    if (gone(req, res)) return;
    const json = JSON.stringify(turnToMessage(turn, ctx));
    if (turn.fault?.type === "cut") {
      res.writeHead(200, { "content-type": "application/json" });
      await write(res, json.slice(0, Math.floor(json.length / 2)));
      req.socket.destroy();
      return;
    }
    if (turn.fault?.type === "stream-error") {
      const type = turn.fault.errorType ?? "overloaded_error";
      sendJson(res, type === "overloaded_error" ? 529 : 500, errorBody(type, turn.fault.message));
      return;
    }
    res.writeHead(200, { "content-type": "application/json", ...replyHeaders(turn) });
    res.end(json);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    res.setHeader("request-id", id("req"));
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const headers = flattenHeaders(req.headers);
    let body: unknown = null;
    let badJson = false;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        badJson = true;
      }
    }
    const isMessages = method === "POST" && path === "/v1/messages";
    const isCount = method === "POST" && path === "/v1/messages/count_tokens";
    const validBody = isRecord(body) && Array.isArray(body.messages);
    let kind: RequestKind = "other";
    if (isCount && validBody) kind = "count_tokens";
    if (isMessages && validBody) {
      const input = { path, headers, body };
      kind = scenario.classify?.(input) ?? classifyRequest(input);
    }
    const sessionId = headers["x-claude-code-session-id"];
    const record: RecordedRequest = {
      index: recorder.requests.length,
      method,
      path,
      headers,
      body,
      kind,
      ...(sessionId !== undefined ? { sessionId } : {}),
      receivedAt: Date.now(),
    };
    if (isRecord(body) && JSON.stringify(body.system ?? "").includes("cc_is_subagent=true")) {
      record.subagent = true;
    }
    // Take the script position before anything awaits, so concurrent requests keep arrival order.
    const take = kind === "main" ? cursor.take(sessionId) : undefined;
    if (take) {
      if (take.step === undefined) record.fallback = true;
      else record.step = take.step;
    }
    recorder.add(record);
    options.onRequest?.(record);

    const required = options.requireHeader;
    if (required && headers[required.name] !== required.value) {
      sendJson(res, 401, errorBody("authentication_error", "the gateway refuses this caller"));
      return;
    }
    if (method === "GET" && path === "/v1/models" && options.models) {
      const data = options.models.map((m) => ({
        type: "model",
        id: m.id,
        display_name: m.display_name ?? m.id,
        created_at: "2026-01-01T00:00:00Z",
      }));
      sendJson(res, 200, {
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
      return;
    }
    if (!isMessages && !isCount) {
      sendJson(
        res,
        404,
        errorBody("not_found_error", `${method} ${path} is not served by the scripted API`),
      );
      return;
    }
    if (badJson || !validBody) {
      const message = badJson ? "request body is not valid JSON" : "messages: Field required";
      sendJson(res, 400, errorBody("invalid_request_error", message));
      return;
    }
    const b = body as Record<string, unknown>;
    if (kind === "count_tokens") {
      sendJson(res, 200, { input_tokens: estimateInputTokens(b) });
      return;
    }
    const ctx: RenderContext = {
      messageId: id("msg"),
      model: typeof b.model === "string" ? b.model : "claude-scripted",
      idPrefix: `side${record.index}`,
      inputTokens: estimateInputTokens(b),
      cacheTtl: requestedCacheTtl(b),
    };
    const stream = b.stream === true;
    if (!take) {
      const turn = scenario.sideReply?.(record) ?? defaultSideReply(b);
      return sendTurn(req, res, turn, ctx, stream);
    }
    if (take.spec === undefined) {
      ctx.idPrefix = `fallback${record.index}`;
      const turn: Turn = {
        content: [{ type: "text", text: scenario.fallbackText ?? DEFAULT_FALLBACK }],
      };
      return sendTurn(req, res, turn, ctx, stream);
    }
    ctx.idPrefix = take.generation > 0 ? `g${take.generation}_s${take.step}` : `s${take.step}`;
    const turn = typeof take.spec === "function" ? await take.spec(record) : take.spec;
    return sendTurn(req, res, turn, ctx, stream);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !gone(req, res)) {
        sendJson(res, 500, errorBody("api_error", `scripted API: ${String(err)}`));
      } else {
        req.socket.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`,
    port: address.port,
    get requests() {
      return recorder.requests;
    },
    mainRequests: () => recorder.main(),
    sideRequests: () => recorder.requests.filter((r) => r.kind === "side"),
    lastMainRequest: () => recorder.main().at(-1),
    waitForMainRequests: (n, opts) => recorder.waitForMain(n, opts?.timeoutMs ?? 10_000),
    enqueue: (...turns) => {
      validateTurns(turns);
      cursor.enqueue(turns);
    },
    setScenario: (next) => {
      const s = toScenario(next);
      validateTurns(s.turns);
      scenario = s;
      cursor.reset(s.turns);
    },
    forgetRequests: () => recorder.forget(),
    close: async () => {
      if (closed) return;
      closed = true;
      recorder.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
