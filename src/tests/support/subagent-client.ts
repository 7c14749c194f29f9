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
import { fakeTranscripts } from "./fake-transcripts.js";
import { isolatedEnv } from "./in-process.js";

/** What the client saw, in order: updates (unstable schema) and permission requests. */
export type SeenEvent =
  | { kind: "update"; notification: SessionNotification }
  | { kind: "permission"; request: RequestPermissionRequest };

/** Two in-memory streams, each side's writes the other's reads. */
function streamPair(): [Stream, Stream] {
  const toAgent = new TransformStream<AnyMessage, AnyMessage>();
  const toClient = new TransformStream<AnyMessage, AnyMessage>();
  return [
    { readable: toAgent.readable, writable: toClient.writable },
    { readable: toClient.readable, writable: toAgent.writable },
  ];
}

/**
 * The in-process agent on a fake Claude Code, connected over a stream (as over stdio) to a
 * client of ACP's unstable schema that declares `subagents` unless told otherwise.
 */
export async function subagentClient(
  options: {
    subagents?: boolean;
    onPermission?: (request: RequestPermissionRequest) => RequestPermissionResponse;
  } = {},
) {
  const claude = fakeClaude();
  const events: SeenEvent[] = [];
  const [agentSide, clientSide] = streamPair();
  const agentConnection = createAgent({
    startQuery: claude.startQuery,
    transcripts: fakeTranscripts(),
    resolveExecutable: () => "/fake/claude",
    env: isolatedEnv(),
  }).connect(agentSide);
  const connection = client({ name: "subagent-test-client" })
    .onNotification(methods.client.session.update, ({ params }) => {
      events.push({ kind: "update", notification: params });
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
    clientCapabilities: options.subagents === false ? {} : { subagents: {} },
  });
  const cwd = mkdtempSync(join(tmpdir(), "subagent-session-"));
  const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  const query: FakeClaudeQuery = claude.started.at(-1)!;
  return { agent, events, query, sessionId };
}
