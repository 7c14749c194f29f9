import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  client,
  methods,
  type ClientCapabilities,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type NewSessionResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { createAgent } from "../../agent.js";
import type { StartClaudeQuery } from "../../claude/query.js";
import type { ClaudeTranscripts } from "../../claude/transcripts.js";
import { fakeTranscripts } from "./fake-transcripts.js";

export type PermissionHandler = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<RequestPermissionResponse> | RequestPermissionResponse;

/**
 * What Claude Code's start makes a session announce apart from its conversation (its slash
 * commands, the models it reports): it comes whenever the start completes, before or after
 * a load's or resume's answer.
 */
export const START_UPDATES: ReadonlySet<string> = new Set([
  "available_commands_update",
  "config_option_update",
]);

/** A temp HOME and config dir: in-process agents never read the real ~/.claude. */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), "acp-home-"));
  return { HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude"), ...extra };
}

export type ElicitationHandler = (
  request: CreateElicitationRequest,
  signal: AbortSignal,
) => Promise<CreateElicitationResponse> | CreateElicitationResponse;

export interface InProcessOptions {
  startQuery: StartClaudeQuery;
  clientCapabilities?: ClientCapabilities;
  onPermission?: PermissionHandler;
  onElicitation?: ElicitationHandler;
  transcripts?: ClaudeTranscripts;
  /** The Claude Code executable (a stand-in script for auth tests). */
  executable?: string;
  /** The agent's environment (HOME, CLAUDE_CONFIG_DIR, IS_SANDBOX...). */
  env?: NodeJS.ProcessEnv;
  /** Extension notifications the client records (in `notifications`), by method. */
  notifications?: readonly string[];
}

/**
 * The agent app connected to an ACP client app in one process: the real protocol
 * layer with SDK validation on both sides, and no child process.
 */
export async function connectInProcess(options: InProcessOptions): Promise<{
  agent: ClientContext;
  updates: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  elicitations: CreateElicitationRequest[];
  /** The ids of `elicitation/complete` notifications, in order. */
  completedElicitations: string[];
  /** The extension notifications of `options.notifications`, in order. */
  notifications: Array<{ method: string; params: unknown }>;
  /** Everything the client saw, in order: updates and permission requests. */
  events: Array<
    | { kind: "update"; update: SessionNotification }
    | { kind: "permission"; request: RequestPermissionRequest }
  >;
  newSession(cwd: string): Promise<string>;
  /**
   * session/new, then what the session offers once Claude Code has started: the response
   * with the mode and config option updates that followed it folded in.
   */
  newStartedSession(cwd: string): Promise<NewSessionResponse>;
  close(): void;
}> {
  const updates: SessionNotification[] = [];
  const elicitations: CreateElicitationRequest[] = [];
  const completedElicitations: string[] = [];
  const notifications: Array<{ method: string; params: unknown }> = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const events: Array<
    | { kind: "update"; update: SessionNotification }
    | { kind: "permission"; request: RequestPermissionRequest }
  > = [];
  const onPermission: PermissionHandler =
    options.onPermission ?? (() => ({ outcome: { outcome: "cancelled" } }));
  const agentApp = createAgent({
    startQuery: options.startQuery,
    transcripts: options.transcripts ?? fakeTranscripts(),
    resolveExecutable: () => options.executable ?? "/fake/claude",
    env: options.env ?? isolatedEnv(),
  });
  const recording = (options.notifications ?? []).reduce(
    (app, method) =>
      app.onNotification(method, { parse: (params: unknown) => params }, ({ params }) => {
        notifications.push({ method, params });
      }),
    client({ name: "test-client" }),
  );
  const clientApp = recording
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      events.push({ kind: "update", update: params });
    })
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
      permissionRequests.push(params);
      events.push({ kind: "permission", request: params });
      return onPermission(params, signal);
    })
    .onNotification(methods.client.elicitation.complete, ({ params }) => {
      completedElicitations.push(params.elicitationId);
    })
    .onRequest(methods.client.elicitation.create, ({ params, signal }) => {
      elicitations.push(params);
      return (options.onElicitation ?? (() => ({ action: "cancel" as const })))(params, signal);
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
    elicitations,
    completedElicitations,
    notifications,
    events,
    newSession: async (cwd) =>
      (await agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).sessionId,
    newStartedSession: async (cwd) => {
      const response = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
      // The commands are announced once the start is decided, after its other updates.
      const mine = () => updates.filter((n) => n.sessionId === response.sessionId);
      while (!mine().some((n) => n.update.sessionUpdate === "available_commands_update")) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return mine().reduce<NewSessionResponse>((state, { update }) => {
        if (update.sessionUpdate === "config_option_update") {
          return { ...state, configOptions: update.configOptions };
        }
        if (update.sessionUpdate === "current_mode_update" && state.modes) {
          return { ...state, modes: { ...state.modes, currentModeId: update.currentModeId } };
        }
        return state;
      }, response);
    },
    close: () => connection.close(),
  };
}
