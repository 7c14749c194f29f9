// What a client configures of where Claude Code's model requests go (ACP's unstable
// `providers/*` and gateway login), and what Claude Code uses by itself. Plain values: the
// protocol edge validates them (acp/provider-params.ts), the Claude boundary turns them into
// Claude Code's environment (claude/provider-env.ts).

/** The one provider: Claude Code talks to one API at a time. */
export const PROVIDER_ID = "main";

/** The APIs Claude Code speaks: Anthropic's (or a gateway of it), Bedrock's, Vertex's. */
export const API_TYPES = ["anthropic", "bedrock", "vertex"] as const;
export type ApiType = (typeof API_TYPES)[number];

export function isApiType(value: string): value is ApiType {
  return (API_TYPES as readonly string[]).includes(value);
}

/** A provider a client set: its routing, its headers (secrets), and what its API needs. */
export interface ProviderConfig {
  apiType: ApiType;
  baseUrl: string;
  /** Sent with every request; values are secrets (tokens, keys). */
  headers: Readonly<Record<string, string>>;
  /** Bedrock's AWS region, Vertex's Google Cloud region. */
  region?: string;
  /** Vertex's Google Cloud project. */
  projectId?: string;
}

/** What a listing shows of a provider: never its headers. */
export interface ProviderRouting {
  apiType: ApiType;
  baseUrl: string;
}

export const ANTHROPIC_API_URL = "https://api.anthropic.com";

/** Claude Code's reading of an environment flag. */
export function isTruthy(value: string | undefined): boolean {
  return ["1", "true", "yes", "on"].includes((value ?? "").trim().toLowerCase());
}

/**
 * Where Claude Code sends its requests with this environment alone (no provider set), as
 * its own provider settings decide: Bedrock or Vertex when turned on, else Anthropic's API
 * or the ANTHROPIC_BASE_URL that replaces it.
 */
export function environmentRouting(env: NodeJS.ProcessEnv): ProviderRouting {
  if (isTruthy(env.CLAUDE_CODE_USE_BEDROCK)) {
    const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1";
    return {
      apiType: "bedrock",
      baseUrl: env.ANTHROPIC_BEDROCK_BASE_URL || `https://bedrock-runtime.${region}.amazonaws.com`,
    };
  }
  if (isTruthy(env.CLAUDE_CODE_USE_VERTEX)) {
    const region = env.CLOUD_ML_REGION;
    const host =
      region && region !== "global"
        ? `${region}-aiplatform.googleapis.com`
        : "aiplatform.googleapis.com";
    return { apiType: "vertex", baseUrl: env.ANTHROPIC_VERTEX_BASE_URL || `https://${host}` };
  }
  return { apiType: "anthropic", baseUrl: env.ANTHROPIC_BASE_URL || ANTHROPIC_API_URL };
}

/**
 * The bearer token Claude Code sends a gateway when the client's headers carry the real
 * credentials: without one it would refuse to start, or send the user's own Anthropic
 * login to the gateway. A client's `Authorization` header replaces it.
 */
export const GATEWAY_TOKEN = "claude-agent-acp-gateway";

/** A bearer `Authorization` value (the only kind Claude Code sends): its token. */
export const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Whether the headers carry their own credentials (`Authorization` or `x-api-key`). */
export function hasCredentials(headers: Readonly<Record<string, string>>): boolean {
  return Object.keys(headers).some((name) =>
    ["authorization", "x-api-key"].includes(name.toLowerCase()),
  );
}
