import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { expect, onTestFinished } from "vitest";
import type { ClaudeTranscripts } from "../../claude/transcripts.js";
import { closableStream } from "../../acp/stdio-transport.js";
import { agentConnector, type ProtocolPin } from "../../protocols.js";
import { fakeClaude, type FakeClaudeQuery } from "./fake-claude.js";
import { fakeTranscripts } from "./fake-transcripts.js";
import { isolatedEnv, START_UPDATES } from "./in-process.js";

/** The JSON-RPC error a v2 request was refused with. */
export function rpcError(error: unknown): { code: number; message: string; data?: unknown } {
  expect(error).toBeInstanceOf(v2.RequestError);
  return error as v2.RequestError;
}

/** What the v2 client saw, in order. */
export type V2Event =
  | { kind: "update"; notification: v2.UpdateSessionNotification }
  | { kind: "permission"; request: v2.RequestPermissionRequest }
  | { kind: "elicitation"; request: v2.CreateElicitationRequest };

/**
 * Two in-memory streams, each side's writes the other's reads. Each message is copied as
 * JSON, as over stdio: nothing the wire would lose reaches the other side.
 */
export function streamPair(): [Stream, Stream] {
  const copy = () =>
    new TransformStream<AnyMessage, AnyMessage>({
      transform: (message, controller) =>
        controller.enqueue(JSON.parse(JSON.stringify(message)) as AnyMessage),
    });
  const toAgent = copy();
  const toClient = copy();
  return [
    { readable: toAgent.readable, writable: toClient.writable },
    { readable: toClient.readable, writable: toAgent.writable },
  ];
}

export interface V2Options {
  capabilities?: v2.ClientCapabilities;
  onPermission?: (
    request: v2.RequestPermissionRequest,
  ) => v2.RequestPermissionResponse | Promise<v2.RequestPermissionResponse>;
  onElicitation?: (
    request: v2.CreateElicitationRequest,
  ) => v2.CreateElicitationResponse | Promise<v2.CreateElicitationResponse>;
  transcripts?: ClaudeTranscripts;
  pin?: ProtocolPin;
  env?: NodeJS.ProcessEnv;
  /** The Claude Code executable (a stand-in script for auth tests). */
  executable?: string;
}

/**
 * The agent as the bin serves it (the protocol router over both apps, on a fake Claude
 * Code), connected over a stream pair to an ACP v2 client of the SDK's unstable schema.
 * It is initialized with protocol version 2 and has one session.
 */
export async function v2Session(options: V2Options = {}) {
  const harness = v2Connection(options);
  const initialized = await harness.agent.request(v2.methods.agent.initialize, {
    protocolVersion: 2,
    info: { name: "v2-test-client", version: "0.0.0" },
    capabilities: options.capabilities ?? {},
  });
  const cwd = mkdtempSync(join(tmpdir(), "acp-v2-"));
  const created = await harness.agent.request(v2.methods.agent.session.new, { cwd });
  const query: FakeClaudeQuery = harness.claude.started.at(-1)!;
  const { sessionId } = created;

  /** Sends a text prompt; resolves with its answer (the inserted message's id). */
  const prompt = (text: string) =>
    harness.agent.request(v2.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });

  return { ...harness, initialized, created, cwd, query, sessionId, prompt };
}

type StateUpdate = v2.StateUpdate & { sessionUpdate: "state_update" };

export interface V2Harness {
  agent: v2.ClientContext;
  claude: ReturnType<typeof fakeClaude>;
  transcripts: ClaudeTranscripts;
  events: V2Event[];
  /** The updates the client saw, of one session or all. */
  updates: (sessionId?: string) => v2.SessionUpdate[];
  /** The session's state updates so far (`state`, `stopReason`, ...). */
  states: (sessionId: string) => StateUpdate[];
  /** Resolves once `predicate` holds for what the client has seen. */
  until: (predicate: () => boolean, what?: string) => Promise<void>;
  /** Resolves once the session has reported `count` idle states. */
  idle: (sessionId: string, count?: number) => Promise<void>;
  served: { readonly closed: Promise<void> };
}

/** The connection alone, not initialized. */
export function v2Connection(options: V2Options = {}): V2Harness {
  const claude = fakeClaude();
  const events: V2Event[] = [];
  const [agentStream, clientSide] = streamPair();
  const agentSide = closableStream(agentStream);
  const transcripts = options.transcripts ?? fakeTranscripts();
  const served = agentConnector(
    {
      startQuery: claude.startQuery,
      transcripts,
      resolveExecutable: () => options.executable ?? "/fake/claude",
      env: options.env ?? isolatedEnv(),
    },
    options.pin,
  ).connect(agentSide.stream);
  const connection = v2
    .client({ name: "v2-test-client" })
    .onNotification(v2.methods.client.session.update, ({ params }) => {
      events.push({ kind: "update", notification: params });
    })
    .onRequest(v2.methods.client.session.requestPermission, ({ params }) => {
      events.push({ kind: "permission", request: params });
      return (
        options.onPermission?.(params) ?? {
          outcome: { outcome: "selected", optionId: "allow-once" },
        }
      );
    })
    .onRequest(v2.methods.client.elicitation.create, ({ params }) => {
      events.push({ kind: "elicitation", request: params });
      return options.onElicitation?.(params) ?? { action: "cancel" };
    })
    .connect(clientSide);
  onTestFinished(async () => {
    connection.close();
    agentSide.close();
    await served.closed;
  });

  const updates = (sessionId?: string) =>
    events.flatMap((e) =>
      e.kind === "update" && (!sessionId || e.notification.sessionId === sessionId)
        ? [e.notification.update]
        : [],
    );

  const until = async (predicate: () => boolean, what = "the condition"): Promise<void> => {
    for (let waited = 0; !predicate(); waited += 5) {
      if (waited > 5_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  const states = (sessionId: string) =>
    updates(sessionId).flatMap((u) =>
      u.sessionUpdate === "state_update" ? [u as StateUpdate] : [],
    );

  const idle = (sessionId: string, count = 1) =>
    until(
      () => states(sessionId).filter((s) => s.state === "idle").length >= count,
      `idle #${count} of ${sessionId}`,
    );

  return {
    agent: connection.agent,
    claude,
    transcripts,
    events,
    updates,
    states,
    until,
    idle,
    served,
  };
}

/**
 * Each foreground update as one word, for reading a turn's order: its kind, a state with its
 * stop reason, a message chunk with its message id (what every start announces, and usage,
 * left out).
 */
export function foregroundWords(updates: v2.SessionUpdate[]): string[] {
  return updates
    .filter((u) => !START_UPDATES.has(u.sessionUpdate) && u.sessionUpdate !== "usage_update")
    .map((u) => {
      if (u.sessionUpdate === "state_update") {
        return [u.state, "stopReason" in u ? u.stopReason : undefined].filter(Boolean).join(" ");
      }
      if (u.sessionUpdate === "agent_message_chunk") return `text ${String(u.messageId)}`;
      return u.sessionUpdate;
    });
}
