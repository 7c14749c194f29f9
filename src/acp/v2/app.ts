import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { AgentCore } from "../../core/agent-core.js";
import type { AuthStatusInfo } from "../../core/auth-status.js";
import type { AgentDependencies } from "../../core/dependencies.js";
import type { Session } from "../../session/session.js";
import { sessionClient } from "../session-client.js";
import { withRequestErrors } from "../errors.js";
import { providerConfigOf, requireProviderId } from "../provider-params.js";
import { STEERING_METHOD, steeringParams } from "../steering.js";
import { initializeResponseV2, sessionCapabilities } from "./capabilities.js";
import { V2Channel } from "./channel.js";
import { configValue, openParams, replays } from "./params.js";
import { PromptLifecycle } from "./prompts.js";
import { steerV2 } from "./steering.js";
import { toV2ConfigOptions } from "./updates.js";

/**
 * The ACP v2 draft app: a second thin dispatcher over the same core as the v1 app
 * (agent.ts). Requests become core calls in v1's shapes (params.ts); the sessions' messages
 * reach the client through the v2 channel, which translates them; prompts follow v2's
 * lifecycle (prompts.ts).
 */
export function createV2Agent(deps: AgentDependencies): v2.AgentApp {
  let channel: V2Channel | undefined;
  let prompts: PromptLifecycle | undefined;
  let statusUpdates: ((status: AuthStatusInfo) => Promise<void>) | undefined;
  const core = new AgentCore(deps, (id, capabilities) => sessionClient(channel!, id, capabilities));

  /**
   * `close` closes the session (session/close, session/archive). Closing cancels the running
   * turn: its idle `cancelled` comes before the answer, and nothing about the session after it.
   */
  const closing = async (sessionId: string, close: () => Promise<void>) => {
    const state = channel!.stateOf(sessionId);
    await close();
    if (state && state !== "idle") {
      await channel!.state(sessionId, { state: "idle", stopReason: "cancelled" });
    }
    channel!.close(sessionId);
  };

  /** `tool_call/cancel`, `terminal/cancel`: one command or subagent stops, the turn goes on. */
  const cancelling = (sessionId: string, toolCallId: string) => {
    core.stopToolCall(sessionId, toolCallId);
    channel!.cancelling(sessionId, toolCallId);
    return Promise.resolve({});
  };

  /** The session is open here: its state is tracked from now on. */
  const opened = (session: Session) => {
    channel!.open(session.id);
    return { configOptions: toV2ConfigOptions(session.configOptions()) };
  };

  return v2
    .agent({ name: "claude-agent-acp" })
    .onConnect((connection) => {
      const client = connection.client;
      channel = new V2Channel(client);
      statusUpdates = (status) => client.notify(v2.methods.client.auth.statusUpdate, status);
      prompts = new PromptLifecycle(core, channel);
      connection.signal.addEventListener("abort", () => core.disconnected());
    })
    .onRequest(v2.methods.agent.initialize, ({ params }) => {
      const capabilities = sessionCapabilities(params.capabilities);
      core.initialize(capabilities);
      if (statusUpdates) void core.watchAuthStatus(statusUpdates);
      return initializeResponseV2(capabilities);
    })
    .onRequest(
      v2.methods.agent.session.new,
      withRequestErrors(async ({ params }) => {
        const session = await core.newSession(openParams(params));
        return { sessionId: session.id, ...opened(session) };
      }),
    )
    .onRequest(
      v2.methods.agent.session.resume,
      withRequestErrors(async ({ params }) => {
        const replay = replays(params.replayFrom);
        // A session closed here before is heard again: its replay comes before the answer.
        channel!.allow(params.sessionId);
        const session = await core.resume(
          { ...openParams(params), sessionId: params.sessionId },
          { replay },
        );
        const response = opened(session);
        // The current state after the replay and before the answer, as v2 requires.
        await channel!.state(session.id, { state: "idle" });
        return response;
      }),
    )
    .onRequest(
      v2.methods.agent.session.fork,
      withRequestErrors(async ({ params }) => {
        const session = await core.fork({ ...openParams(params), sessionId: params.sessionId });
        return { sessionId: session.id, ...opened(session) };
      }),
    )
    .onRequest(
      v2.methods.agent.session.list,
      withRequestErrors(({ params }) => core.list(params)),
    )
    .onRequest(
      v2.methods.agent.session.setTitle,
      withRequestErrors(async ({ params }) => ({
        title: await core.setTitle(params.sessionId, params.title, params._meta),
      })),
    )
    .onRequest(
      v2.methods.agent.session.close,
      withRequestErrors(async ({ params }) => {
        await closing(params.sessionId, () => core.close(params.sessionId));
        return {};
      }),
    )
    .onRequest(
      v2.methods.agent.session.delete,
      withRequestErrors(async ({ params }) => {
        await core.delete(params.sessionId);
        channel!.close(params.sessionId);
        return {};
      }),
    )
    .onRequest(
      v2.methods.agent.session.archive,
      withRequestErrors(async ({ params }) => {
        await closing(params.sessionId, () =>
          core.setArchived(params.sessionId, true, params._meta),
        );
        return {};
      }),
    )
    .onRequest(
      v2.methods.agent.session.status,
      withRequestErrors(async ({ params }) => {
        const status = await core.sessionStatus(params.sessionId);
        // The state snapshot v2 asks for, as last reported on this connection.
        const state = status === "open" ? channel!.lastState(params.sessionId) : undefined;
        return { status, ...(state ? { state } : {}) };
      }),
    )
    .onRequest(
      v2.methods.agent.auth.status,
      withRequestErrors(() => core.authStatus()),
    )
    .onRequest(
      v2.methods.agent.toolCall.cancel,
      withRequestErrors(({ params }) => cancelling(params.sessionId, params.toolCallId)),
    )
    .onRequest(
      v2.methods.agent.terminal.cancel,
      // A command's terminal is named by its tool call (tools/renderers/terminal.ts).
      withRequestErrors(({ params }) => cancelling(params.sessionId, params.terminalId)),
    )
    .onRequest(
      v2.methods.agent.session.unarchive,
      withRequestErrors(async ({ params }) => {
        await core.setArchived(params.sessionId, false, params._meta);
        return {};
      }),
    )
    .onRequest(v2.methods.agent.session.prompt, ({ params, signal }) =>
      prompts!.prompt(params.sessionId, params.prompt, signal),
    )
    .onRequest(
      STEERING_METHOD,
      steeringParams,
      withRequestErrors(({ params }) => Promise.resolve(steerV2(core, prompts!, params))),
    )
    .onRequest(
      v2.methods.agent.session.setConfigOption,
      withRequestErrors(async ({ params }) => ({
        configOptions: toV2ConfigOptions(
          await core.setConfigOption(params.sessionId, params.configId, configValue(params)),
        ),
      })),
    )
    .onRequest(
      v2.methods.agent.auth.login,
      withRequestErrors(async ({ params }) => {
        await core.authenticate(params.methodId);
        return {};
      }),
    )
    .onRequest(
      v2.methods.agent.providers.list,
      withRequestErrors(() => Promise.resolve({ providers: core.listProviders() })),
    )
    .onRequest(
      v2.methods.agent.providers.set,
      withRequestErrors(async ({ params }) => {
        await core.setProvider(providerConfigOf(params));
        return {};
      }),
    )
    .onRequest(
      v2.methods.agent.providers.disable,
      withRequestErrors(async ({ params }) => {
        requireProviderId(params.providerId);
        await core.disableProvider();
        return {};
      }),
    )
    .onRequest(
      v2.methods.agent.auth.logout,
      withRequestErrors(async () => {
        await core.logout();
        return {};
      }),
    )
    .onNotification(v2.methods.agent.session.cancel, ({ params }) => {
      core.cancel(params.sessionId);
    });
}
