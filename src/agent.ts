import {
  agent,
  methods,
  type AgentApp,
  type ClientCapabilities,
  type ContentBlock,
  type PromptResponse,
} from "@agentclientprotocol/sdk";
import { airConfigOptions, airModes } from "./acp/air/modes.js";
import { sessionFailureMeta } from "./acp/air/session-failure.js";
import { initializeResponse } from "./acp/capabilities.js";
import { withRequestErrors } from "./acp/errors.js";
import {
  ARCHIVE_METHOD,
  EDIT_PROMPT_METHOD,
  editPromptParams,
  REWIND_METHOD,
  rewindParams,
  FORK_METHOD,
  forkSessionParams,
  listSessionsParams,
  newSessionParams,
  savedSessionParams,
  sessionIdParams,
  SESSION_STATUS_METHOD,
  SET_TITLE_METHOD,
  setTitleParams,
  UNARCHIVE_METHOD,
} from "./acp/session-params.js";
import { mergingTextChannel, v1Channel, type MergingChannel } from "./acp/channel.js";
import { AUTH_STATUS_UPDATE_METHOD } from "./acp/auth.js";
import { accountRoutes } from "./account-routes.js";
import { AirConnection } from "./air/connection.js";
import { sessionClient } from "./acp/session-client.js";
import { cancelledByClient, ServedSessions, type ServerSessions } from "./served-sessions.js";
import {
  withUnstableCapabilities,
  type UnstableClientCapabilities,
} from "./acp/unstable-capabilities.js";
import { STEERING_METHOD, steeringParams } from "./acp/steering.js";
import { CANCEL_TOOL_CALL_METHOD, cancelToolCallParams } from "./acp/tool-call-cancel.js";
import {
  applyTrustParams,
  TRUST_APPLY_METHOD,
  workspaceTrustState,
} from "./acp/workspace-trust.js";
import { AgentCore } from "./core/agent-core.js";
import type { AuthStatusInfo } from "./core/auth-status.js";
import type { AgentDependencies } from "./core/dependencies.js";
import type { FilesReport } from "./core/rewinds.js";
import type { SavedSessionParams } from "./core/opening.js";
import type { Session } from "./session/session.js";
import type { TurnStarted } from "./session/turns/turn-queue.js";

export type { AgentDependencies } from "./core/dependencies.js";
export { DEFAULT_IDLE_TIMEOUT_MS } from "./core/opening.js";

/**
 * The ACP v1 app: a thin dispatcher. Each handler hands its request to the core
 * (core/agent-core.ts), which looks the session up once and delegates; the logic lives in
 * the core's modules (core/) and in the session.
 */
export function createAgent(deps: AgentDependencies, server?: ServerSessions): AgentApp {
  /** The connection's client: every session's sender speaks to it. */
  let channel: MergingChannel | undefined;
  /** Served on the network: sessions can outlive the connection (served-sessions.ts). */
  const served: ServedSessions | undefined = server
    ? new ServedSessions(server, (): AgentCore => core)
    : undefined;
  let connectionSignal: AbortSignal | undefined;
  const core: AgentCore = new AgentCore(deps, (id, capabilities) =>
    served ? served.client(channel!, id, capabilities) : sessionClient(channel!, id, capabilities),
  );
  /**
   * load and resume: a session kept from a dropped connection, or open on another, is taken
   * over; any other opens from its transcript.
   */
  const reopen = async (params: SavedSessionParams, replay: boolean): Promise<Session> =>
    (await served?.take(params, channel!, replay)) ?? core.resume(params, { replay });
  /**
   * A prompt's turn (session/prompt, edit_prompt): its user message's id (the message-id RFD's
   * `userMessageId`, which a replay's user_message_chunk carries); served, its place in the
   * history, and only the client's own cancel stops it (not the connection dropping). A turn
   * that fails ends with AIR's typed report for a client that declared it (`failed` makes the
   * result of that answer).
   */
  const promptTurn = async <T>(
    turn: { sessionId: string; prompt: ContentBlock[] },
    signal: AbortSignal,
    run: (cancel: AbortSignal, started: TurnStarted) => Promise<T>,
    failed: (answer: PromptResponse) => T,
  ): Promise<{ result: T; userMessageId?: string }> => {
    let userMessageId: string | undefined;
    const running = run(
      served ? cancelledByClient(signal, connectionSignal!) : signal,
      (id, saved) => {
        if (saved) userMessageId = id;
        served?.prompted(turn.sessionId, turn.prompt, id);
      },
    );
    served?.track(turn.sessionId, running);
    const result = await running.catch((error: unknown) => {
      const failure = sessionFailureMeta(clientCapabilities, turn.sessionId, error);
      if (!failure) throw error;
      return failed({ stopReason: "end_turn", _meta: failure });
    });
    return userMessageId ? { result, userMessageId } : { result };
  };
  let unstableCapabilities: UnstableClientCapabilities = {};
  let clientCapabilities: ClientCapabilities = {};
  let statusUpdates: ((status: AuthStatusInfo) => Promise<void>) | undefined;
  let notify: ((method: string, params: Record<string, unknown>) => Promise<void>) | undefined;
  /** JetBrains AIR's extension, for a client that declared it (air/). */
  const air = new AirConnection({
    core: () => core,
    notify: (method, params) => notify!(method, params),
    update: (notification) => channel!.update(notification),
  });

  /** A response comes after the updates sent before it: a text chunk held goes first. */
  const answering = <A extends unknown[], R>(handler: (...args: A) => Promise<R>) =>
    withRequestErrors(async (...args: A): Promise<R> => {
      try {
        return await handler(...args);
      } finally {
        channel?.flush();
      }
    });

  const state = (session: Session) => {
    const trust = core.workspaceTrust(session);
    return {
      modes: airModes(session.modes(), clientCapabilities),
      configOptions: airConfigOptions(session.configOptions(), clientCapabilities),
      ...(trust ? { workspaceTrust: workspaceTrustState(trust) } : {}),
    };
  };

  const app = withUnstableCapabilities(
    agent({ name: "claude-agent-acp" }),
    (capabilities) => (unstableCapabilities = capabilities),
  );
  return (
    accountRoutes(air.routes(app), core, answering)
      .onConnect((connection) => {
        const client = connection.client;
        channel = mergingTextChannel(v1Channel(client));
        notify = (method, params) => client.notify(method, params);
        statusUpdates = (status) => client.notify(AUTH_STATUS_UPDATE_METHOD, status);
        connectionSignal = connection.signal;
        connection.signal.addEventListener("abort", () => {
          served?.disconnected();
          air.close();
          core.disconnected();
        });
      })
      .onRequest(methods.agent.initialize, ({ params }) => {
        core.initialize({ ...params.clientCapabilities, ...unstableCapabilities });
        clientCapabilities = params.clientCapabilities ?? {};
        air.negotiate(clientCapabilities);
        if (statusUpdates) void core.watchAuthStatus(statusUpdates);
        return initializeResponse(params);
      })
      // The methods that open a session read the unstable `systemPrompt` (session-params.ts).
      .onRequest(
        methods.agent.session.new,
        newSessionParams,
        answering(async ({ params }) => {
          const session = await core.newSession(params);
          return { sessionId: session.id, ...state(session) };
        }),
      )
      .onRequest(
        methods.agent.session.load,
        savedSessionParams,
        answering(async ({ params }) => state(await reopen(params, true))),
      )
      .onRequest(
        methods.agent.session.resume,
        savedSessionParams,
        answering(async ({ params }) => state(await reopen(params, false))),
      )
      .onRequest(
        FORK_METHOD,
        forkSessionParams,
        answering(async ({ params }) => {
          const session = await core.fork(params);
          return { sessionId: session.id, ...state(session) };
        }),
      )
      .onRequest(
        methods.agent.session.list,
        listSessionsParams,
        answering(({ params }) => air.list(params)),
      )
      .onRequest(
        methods.agent.session.close,
        answering(async ({ params }) => {
          await core.close(params.sessionId);
          return {};
        }),
      )
      .onRequest(
        methods.agent.session.delete,
        answering(async ({ params }) => {
          await air.delete(params.sessionId);
          return {};
        }),
      )
      .onRequest(
        ARCHIVE_METHOD,
        sessionIdParams,
        answering(async ({ params }) => {
          await core.setArchived(params.sessionId, true, params._meta);
          return {};
        }),
      )
      .onRequest(
        UNARCHIVE_METHOD,
        sessionIdParams,
        answering(async ({ params }) => {
          await core.setArchived(params.sessionId, false, params._meta);
          return {};
        }),
      )
      .onRequest(
        SESSION_STATUS_METHOD,
        sessionIdParams,
        answering(async ({ params }) => ({ status: await core.sessionStatus(params.sessionId) })),
      )
      .onRequest(
        SET_TITLE_METHOD,
        setTitleParams,
        answering(async ({ params }) => ({
          title: await core.setTitle(params.sessionId, params.title, params._meta),
        })),
      )
      .onRequest(
        methods.agent.session.prompt,
        answering(async ({ params, signal }) => {
          const { result, userMessageId } = await air.prompt(params, () =>
            promptTurn(
              params,
              signal,
              (cancel, started) => core.prompt(params.sessionId, params.prompt, cancel, started),
              (answer) => answer,
            ),
          );
          return userMessageId ? { ...result, userMessageId } : result;
        }),
      )
      .onRequest(
        REWIND_METHOD,
        rewindParams,
        answering(async ({ params }) => {
          const { files, ...rewound } = await core.rewind(
            params.sessionId,
            params.toMessageId,
            params._meta,
          );
          return files ? { ...rewound, _meta: { claudeCode: { files } } } : rewound;
        }),
      )
      .onRequest(
        EDIT_PROMPT_METHOD,
        editPromptParams,
        answering(async ({ params, signal }) => {
          const edit = { messageId: params.messageId, content: params.newContent };
          const turn = { sessionId: params.sessionId, prompt: params.newContent };
          const { result, userMessageId } = await promptTurn(
            turn,
            signal,
            (cancel, started) =>
              core.editPrompt(
                params.sessionId,
                params._meta === "restore" ? { ...edit, files: params._meta } : edit,
                cancel,
                started,
              ),
            (answer): { answer: PromptResponse; files?: FilesReport } => ({ answer }),
          );
          return {
            ...result.answer,
            ...(userMessageId ? { userMessageId } : {}),
            ...(result.files ? { _meta: { claudeCode: { files: result.files } } } : {}),
          };
        }),
      )
      .onRequest(
        STEERING_METHOD,
        steeringParams,
        answering(({ params }) =>
          Promise.resolve(core.steer(params.sessionId, params.prompt, params.idleBehavior)),
        ),
      )
      .onRequest(
        CANCEL_TOOL_CALL_METHOD,
        cancelToolCallParams,
        answering(({ params }) => {
          core.stopToolCall(params.sessionId, params.toolCallId);
          return Promise.resolve({});
        }),
      )
      .onRequest(
        methods.agent.session.setMode,
        answering(async ({ params }) => {
          await core.setMode(params.sessionId, params.modeId);
          return {};
        }),
      )
      .onRequest(
        methods.agent.session.setConfigOption,
        answering(async ({ params }) => {
          const { sessionId, configId, value } = params;
          const options = await core.setConfigOption(sessionId, configId, value);
          return { configOptions: airConfigOptions(options, clientCapabilities) };
        }),
      )
      .onRequest(
        TRUST_APPLY_METHOD,
        applyTrustParams,
        answering(async ({ params }) => ({
          workspaceTrust: workspaceTrustState(await core.applyTrust(params)),
        })),
      )
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        core.cancel(params.sessionId);
      })
  );
}
