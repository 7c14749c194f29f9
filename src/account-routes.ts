import { methods, type AgentApp } from "@agentclientprotocol/sdk";
import { AUTH_STATUS_METHOD, authStatusParams, gatewayProtocol } from "./acp/auth.js";
import {
  gatewayConfigOf,
  providerConfigOf,
  PROVIDERS_DISABLE_METHOD,
  PROVIDERS_LIST_METHOD,
  PROVIDERS_SET_METHOD,
  providersDisableParams,
  providersListParams,
  providersSetParams,
  requireProviderId,
} from "./acp/provider-params.js";
import type { AgentCore } from "./core/agent-core.js";

/** How the v1 app answers a request (agent.ts: errors made wire errors, held text sent first). */
export type Answering = <A extends unknown[], R>(
  handler: (...args: A) => Promise<R>,
) => (...args: A) => Promise<R>;

/** The ACP v1 methods of the login and the provider: each hands its request to the core. */
export function accountRoutes(app: AgentApp, core: AgentCore, answering: Answering): AgentApp {
  return app
    .onRequest(
      methods.agent.authenticate,
      answering(async ({ params }) => {
        const gateway = gatewayProtocol(params.methodId);
        if (gateway) await core.setProvider(gatewayConfigOf(gateway, params._meta));
        else await core.authenticate(params.methodId);
        return {};
      }),
    )
    .onRequest(
      AUTH_STATUS_METHOD,
      authStatusParams,
      answering(() => core.authStatus()),
    )
    .onRequest(
      PROVIDERS_LIST_METHOD,
      providersListParams,
      answering(() => Promise.resolve({ providers: core.listProviders() })),
    )
    .onRequest(
      PROVIDERS_SET_METHOD,
      providersSetParams,
      answering(async ({ params }) => {
        await core.setProvider(providerConfigOf(params));
        return {};
      }),
    )
    .onRequest(
      PROVIDERS_DISABLE_METHOD,
      providersDisableParams,
      answering(async ({ params }) => {
        requireProviderId(params.providerId);
        await core.disableProvider();
        return {};
      }),
    )
    .onRequest(
      methods.agent.logout,
      answering(async () => {
        await core.logout();
        return {};
      }),
    );
}
