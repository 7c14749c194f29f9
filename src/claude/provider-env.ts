import type { GatewayModel } from "../providers/gateway-models.js";
import { BEARER, GATEWAY_TOKEN, type ProviderConfig } from "../providers/provider-config.js";
import type { ModelInfo } from "./types.js";

/** Claude Code's environment entries; `undefined` removes one the agent's environment has. */
export type EnvironmentOverlay = Record<string, string | undefined>;

/**
 * The variables that choose where Claude Code's requests go, as the installed Claude Code
 * reads them (a test lists them from its binary): the API's, and every other base URL it
 * takes (its artifacts, bridge, feature flags, sign-in, voice). For a provider each is
 * pinned off but the one it sets, so nothing else (the agent's environment, a settings
 * file) sends the provider's headers, or a credential of the agent's, to another host.
 */
export const ENDPOINTS = [
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_BEDROCK_BASE_URL",
  "ANTHROPIC_BEDROCK_MANTLE_BASE_URL",
  "ANTHROPIC_VERTEX_BASE_URL",
  "ANTHROPIC_FOUNDRY_BASE_URL",
  "ANTHROPIC_FOUNDRY_RESOURCE",
  "ANTHROPIC_AWS_BASE_URL",
  "ANTHROPIC_GOOGLE_CLOUD_BASE_URL",
  "CLAUDE_CODE_API_BASE_URL",
  "ANTHROPIC_UNIX_SOCKET",
  "AWS_ENDPOINT_URL",
  "AWS_ENDPOINT_URL_BEDROCK",
  "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
  "AWS_ENDPOINT_URL_STS",
  "AGENT_PROXY_URL",
  "_CLAUDE_CODE_ASSUME_FIRST_PARTY_BASE_URL",
  "CLAUDE_LOCAL_OAUTH_API_BASE",
  "CLAUDE_BRIDGE_BASE_URL",
  "CLAUDE_CODE_ARTIFACTS_API_BASE_URL",
  "CLAUDE_CODE_ARTIFACT_ASSET_BASE_URL",
  "CLAUDE_CODE_ARTIFACT_LIVE_BASE_URL",
  "CLAUDE_CODE_ARTIFACT_SYNC_BASE_URL",
  "CLAUDE_CODE_ARTIFACT_VIEWER_BASE_URL",
  "CLAUDE_CODE_GB_BASE_URL",
  "VOICE_STREAM_BASE_URL",
] as const;
export const PROVIDER_SWITCHES = [
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "CLAUDE_CODE_USE_FOUNDRY",
  "CLAUDE_CODE_USE_MANTLE",
  "CLAUDE_CODE_USE_GATEWAY",
  "CLAUDE_CODE_USE_ANTHROPIC_AWS",
  "CLAUDE_CODE_USE_ANTHROPIC_GOOGLE_CLOUD",
] as const;
/** The agent's own credentials, never given to a provider's host. */
const OWN_CREDENTIALS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_CUSTOM_HEADERS",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "CLAUDE_CODE_SKIP_BEDROCK_AUTH",
  "ANTHROPIC_VERTEX_PROJECT_ID",
  "CLOUD_ML_REGION",
  "CLAUDE_CODE_SKIP_VERTEX_AUTH",
] as const;
/**
 * The proxies Claude Code sends through (it takes the first set, in either case, then its
 * own CLAUDE_CODE_ ones). An `http://` provider is reached directly: its headers travel in
 * clear, so no proxy, the user's own or one a project's settings name, may carry them.
 */
export const PROXIES = [
  "https_proxy",
  "HTTPS_PROXY",
  "http_proxy",
  "HTTP_PROXY",
  "all_proxy",
  "ALL_PROXY",
  "no_proxy",
  "NO_PROXY",
  "CLAUDE_CODE_HTTPS_PROXY",
  "CLAUDE_CODE_HTTP_PROXY",
] as const;
/**
 * What Claude Code trusts as a server's certificate: pinned to the agent's own, so a proxy
 * that a settings file names sees an `https://` provider's headers only as a sealed tunnel.
 */
export const TLS_TRUST = [
  "NODE_TLS_REJECT_UNAUTHORIZED",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CLAUDE_CODE_CERT_STORE",
  "CLAUDE_CODE_DISABLE_LOOPED_CROSS_CERT_DROP",
  "CLAUDE_CODE_DISABLE_SELF_NAMED_CERT_DROP",
] as const;

/** The headers as Claude Code's ANTHROPIC_CUSTOM_HEADERS takes them: `Name: value` lines. */
function customHeaders(headers: Readonly<Record<string, string>>): EnvironmentOverlay {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return lines.length ? { ANTHROPIC_CUSTOM_HEADERS: lines.join("\n") } : {};
}

/** What a Claude Code process is started with for a provider (claude/query.ts). */
export interface ProviderLaunch {
  /** Over the agent's environment: the routing, and the headers (secrets). */
  env: EnvironmentOverlay;
  /**
   * The routing again, pinned in the flag settings layer: a settings file's `env` (say an
   * ANTHROPIC_BASE_URL of the user's) would otherwise win over the environment, and send
   * the provider's headers to another host. No secret: it is on the command line.
   */
  settingsEnv: Record<string, string>;
}

/**
 * How Claude Code is started for a provider the client set, with the variables Claude
 * Code's own provider settings use (its LLM gateway setup): an Anthropic-protocol gateway
 * at ANTHROPIC_BASE_URL; Bedrock or Vertex at the client's endpoint. Headers make a
 * gateway: it holds the credentials, so Claude Code skips its own (AWS's, Google's) and
 * sends a placeholder token where it needs one. Without headers, Bedrock and Vertex use
 * the machine's credentials, as Claude Code does. No provider: nothing changes.
 */
export function providerLaunch(
  config: ProviderConfig | undefined,
  agentEnv: Readonly<NodeJS.ProcessEnv> = {},
): ProviderLaunch | undefined {
  if (!config) return undefined;
  const gateway = Object.keys(config.headers).length > 0;
  const inClear = new URL(config.baseUrl).protocol === "http:";
  // Off and empty rather than removed: a settings file must not turn them back on.
  const off: Record<string, string> = {
    ...Object.fromEntries(ENDPOINTS.map((name) => [name, ""])),
    ...Object.fromEntries(PROVIDER_SWITCHES.map((name) => [name, "0"])),
    ANTHROPIC_API_KEY: "",
    CLAUDE_CODE_OAUTH_TOKEN: "",
    ...Object.fromEntries(TLS_TRUST.map((name) => [name, agentEnv[name] ?? ""])),
    ...(inClear ? Object.fromEntries(PROXIES.map((name) => [name, ""])) : {}),
  };
  const credentials =
    config.apiType === "anthropic" ? anthropicCredentials(config.headers) : undefined;
  const routing: Record<string, string> = (() => {
    switch (config.apiType) {
      case "anthropic": {
        const pinned: Record<string, string> = {
          ...off,
          ANTHROPIC_BASE_URL: config.baseUrl,
          ...credentials!.pins,
        };
        // The gateway's own credentials are secrets: in the environment only, never pinned.
        for (const name of Object.keys(credentials!.env)) delete pinned[name];
        return pinned;
      }
      case "bedrock":
        return {
          ...off,
          CLAUDE_CODE_USE_BEDROCK: "1",
          ANTHROPIC_BEDROCK_BASE_URL: config.baseUrl,
          ...(config.region ? { AWS_REGION: config.region } : {}),
          ...(gateway ? { CLAUDE_CODE_SKIP_BEDROCK_AUTH: "1" } : {}),
        };
      case "vertex":
        return {
          ...off,
          CLAUDE_CODE_USE_VERTEX: "1",
          ANTHROPIC_VERTEX_BASE_URL: config.baseUrl,
          ...(config.projectId ? { ANTHROPIC_VERTEX_PROJECT_ID: config.projectId } : {}),
          ...(config.region ? { CLOUD_ML_REGION: config.region } : {}),
          ...(gateway ? { CLAUDE_CODE_SKIP_VERTEX_AUTH: "1" } : {}),
        };
    }
  })();
  const cleared: EnvironmentOverlay = Object.fromEntries(
    [...ENDPOINTS, ...PROVIDER_SWITCHES, ...OWN_CREDENTIALS, ...(inClear ? PROXIES : [])].map(
      (name) => [name, undefined],
    ),
  );
  // Empty values are left out of the environment: there they are simply not set.
  const set = Object.fromEntries(Object.entries(routing).filter(([, value]) => value !== ""));
  return {
    env: {
      ...cleared,
      ...set,
      ...credentials?.env,
      ...customHeaders(credentials?.headers ?? config.headers),
    },
    settingsEnv: routing,
  };
}

/**
 * Claude Code sends its own credentials in `Authorization` (ANTHROPIC_AUTH_TOKEN, as a
 * bearer token) and `x-api-key` (ANTHROPIC_API_KEY), over any custom header of those names:
 * a gateway's are given to it there, the rest as custom headers. Without either, a
 * placeholder token, so that Claude Code starts without the user's own login. `pins` go
 * in the flag settings (no secret there): the placeholder, and an empty value for what the
 * gateway does not use, so a settings file cannot add the user's own key.
 */
function anthropicCredentials(headers: Readonly<Record<string, string>>): {
  env: Record<string, string>;
  pins: Record<string, string>;
  headers: Record<string, string>;
} {
  const env: Record<string, string> = {};
  const rest: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const bearer = BEARER.exec(value);
    if (name.toLowerCase() === "authorization" && bearer) env.ANTHROPIC_AUTH_TOKEN = bearer[1]!;
    else if (name.toLowerCase() === "x-api-key") env.ANTHROPIC_API_KEY = value;
    else rest[name] = value;
  }
  const pins: Record<string, string> = {};
  if (!env.ANTHROPIC_API_KEY) pins.ANTHROPIC_API_KEY = "";
  if (!env.ANTHROPIC_AUTH_TOKEN) {
    pins.ANTHROPIC_AUTH_TOKEN = env.ANTHROPIC_API_KEY ? "" : GATEWAY_TOKEN;
  }
  return { env, pins, headers: rest };
}

/** A gateway's models as Claude Code's model list names models: what the picker offers. */
export function gatewayModelInfos(models: readonly GatewayModel[]): ModelInfo[] {
  return models.map(({ id, displayName }) => ({
    value: id,
    displayName,
    description: `${id}, served by the gateway`,
  }));
}
