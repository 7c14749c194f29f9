import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import {
  client,
  methods,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk/unstable";
import { onTestFinished } from "vitest";
import { createAgent } from "../../agent.js";
import { fakeClaude, type FakeClaudeQuery } from "./fake-claude.js";
import { fakeTranscripts, type FakeTranscripts } from "./fake-transcripts.js";
import { isolatedEnv } from "./in-process.js";

/** What the client saw, in order: updates (unstable schema) and permission requests. */
export type SeenEvent =
  | { kind: "update"; notification: SessionNotification }
  | { kind: "permission"; request: RequestPermissionRequest };

/** Two in-memory streams, each side's writes the other's reads; `tap` sees the agent's. */
function streamPair(tap?: (message: AnyMessage) => void): [Stream, Stream] {
  const toAgent = new TransformStream<AnyMessage, AnyMessage>();
  const toClient = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      tap?.(message);
      controller.enqueue(message);
    },
  });
  return [
    { readable: toAgent.readable, writable: toClient.writable },
    { readable: toClient.readable, writable: toAgent.writable },
  ];
}

/** A temp directory for a session's cwd. */
export function sessionCwd(): string {
  return mkdtempSync(join(tmpdir(), "subagent-session-"));
}

/**
 * The in-process agent on a fake Claude Code, connected over a stream (as over stdio) to a
 * client of ACP's unstable schema that declares `subagents` unless told otherwise. The
 * session is new, or `open`s a saved one of `transcripts` (in `cwd`) with load or resume.
 */
export async function subagentClient(
  options: {
    subagents?: boolean;
    onPermission?: (request: RequestPermissionRequest) => RequestPermissionResponse;
    transcripts?: FakeTranscripts;
    cwd?: string;
    open?: { sessionId: string; method: "load" | "resume" };
    /** What the client declares instead (JetBrains AIR's handshake...). */
    clientCapabilities?: Record<string, unknown>;
    /** What the fake Claude Code reports (its commands, its skills). */
    claude?: Parameters<typeof fakeClaude>[0];
  } = {},
) {
  const claude = fakeClaude(options.claude);
  const events: SeenEvent[] = [];
  // A client of another draft (JetBrains AIR's) reads updates the unstable schema does not
  // name, which the SDK's client refuses: its updates are seen on the wire, as they come.
  const raw = options.clientCapabilities !== undefined;
  const [agentSide, clientSide] = streamPair(
    raw
      ? (message) => {
          if ("method" in message && message.method === methods.client.session.update) {
            events.push({ kind: "update", notification: message.params as SessionNotification });
          }
        }
      : undefined,
  );
  const agentConnection = createAgent({
    startQuery: claude.startQuery,
    transcripts: options.transcripts ?? fakeTranscripts(),
    resolveExecutable: () => "/fake/claude",
    env: isolatedEnv(),
  }).connect(agentSide);
  const connection = client({ name: "subagent-test-client" })
    .onNotification(methods.client.session.update, ({ params }) => {
      if (!raw) events.push({ kind: "update", notification: params });
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      events.push({ kind: "permission", request: params });
      return (
        options.onPermission?.(params) ?? {
          outcome: { outcome: "selected", optionId: "allow-once" },
        }
      );
    })
    .connect(clientSide);
  onTestFinished(() => {
    connection.close();
    agentConnection.close();
  });
  const agent = connection.agent;
  await agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities:
      options.clientCapabilities ?? (options.subagents === false ? {} : { subagents: {} }),
  });
  const cwd = options.cwd ?? sessionCwd();
  const open = options.open;
  let sessionId: string;
  if (!open) {
    ({ sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] }));
  } else {
    sessionId = open.sessionId;
    const method =
      open.method === "load" ? methods.agent.session.load : methods.agent.session.resume;
    await agent.request(method, { sessionId, cwd, mcpServers: [] });
  }
  const query: FakeClaudeQuery = claude.started.at(-1)!;
  return { agent, events, query, sessionId };
}
