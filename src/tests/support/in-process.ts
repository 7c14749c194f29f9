import {
  client,
  methods,
  type ClientCapabilities,
  type ClientContext,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { createAgent } from "../../agent.js";
import type { StartClaudeQuery } from "../../claude/query.js";

export type PermissionHandler = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<RequestPermissionResponse> | RequestPermissionResponse;

export interface InProcessOptions {
  startQuery: StartClaudeQuery;
  clientCapabilities?: ClientCapabilities;
  onPermission?: PermissionHandler;
}

/**
 * The agent app connected to an ACP client app in one process: the real protocol
 * layer with SDK validation on both sides, and no child process.
 */
export async function connectInProcess(options: InProcessOptions): Promise<{
  agent: ClientContext;
  updates: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  /** Everything the client saw, in order: updates and permission requests. */
  events: Array<
    | { kind: "update"; update: SessionNotification }
    | { kind: "permission"; request: RequestPermissionRequest }
  >;
  newSession(cwd: string): Promise<string>;
  close(): void;
}> {
  const updates: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const events: Array<
    | { kind: "update"; update: SessionNotification }
    | { kind: "permission"; request: RequestPermissionRequest }
  > = [];
  const onPermission: PermissionHandler =
    options.onPermission ?? (() => ({ outcome: { outcome: "cancelled" } }));
  const agentApp = createAgent({
    startQuery: options.startQuery,
    resolveExecutable: () => "/fake/claude",
    env: {},
  });
  const clientApp = client({ name: "test-client" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      events.push({ kind: "update", update: params });
    })
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
      permissionRequests.push(params);
      events.push({ kind: "permission", request: params });
      return onPermission(params, signal);
    });
  const connection = clientApp.connect(agentApp);
  const agent = connection.agent;
  await agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: options.clientCapabilities ?? {},
  });
  return {
    agent,
    updates,
    permissionRequests,
    events,
    newSession: async (cwd) =>
      (await agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).sessionId,
    close: () => connection.close(),
  };
}
