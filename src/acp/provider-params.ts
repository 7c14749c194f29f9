import { z } from "zod";
import { echoed, InvalidParamsError } from "../errors.js";
import {
  API_TYPES,
  BEARER,
  isApiType,
  PROVIDER_ID,
  type ProviderConfig,
} from "../providers/provider-config.js";

// ACP's unstable `providers/*` methods and the gateway login, read at the protocol edge.
// A client's values are checked here, whole, before anything changes; an error names what
// is wrong and never echoes a header's value or a base URL (either may hold a secret).

export const PROVIDERS_LIST_METHOD = "providers/list";
export const PROVIDERS_SET_METHOD = "providers/set";
export const PROVIDERS_DISABLE_METHOD = "providers/disable";

const meta = z.record(z.string(), z.unknown()).nullish().catch(undefined);

/** Loose on purpose: the values are checked by hand, so no parser message quotes them. */
const setShape = z.looseObject({
  providerId: z.unknown(),
  apiType: z.unknown(),
  baseUrl: z.unknown(),
  headers: z.unknown().optional(),
  _meta: meta,
});
const disableShape = z.looseObject({ providerId: z.unknown(), _meta: meta });

export const providersListParams = {
  parse: (params: unknown): Record<string, unknown> =>
    z.looseObject({ _meta: meta }).parse(params ?? {}),
};

export const providersSetParams = {
  parse: (params: unknown): z.infer<typeof setShape> => setShape.parse(params),
};

export const providersDisableParams = {
  parse: (params: unknown): z.infer<typeof disableShape> => disableShape.parse(params),
};

/** The provider a request names: this agent has one. */
export function requireProviderId(providerId: unknown): void {
  if (providerId !== PROVIDER_ID) {
    throw new InvalidParamsError(
      `Unknown provider: this agent has one provider, "${PROVIDER_ID}".`,
      typeof providerId === "string" ? { providerId: echoed(providerId) } : {},
    );
  }
}

/** An HTTP header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may not hold: line breaks and other control characters but tab. */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

function checkHeaders(headers: unknown): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (typeof headers !== "object" || Array.isArray(headers)) {
    throw new InvalidParamsError("headers must be an object of header names to string values.");
  }
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      throw new InvalidParamsError(`"${echoed(name)}" is not a valid HTTP header name.`);
    }
    if (typeof value !== "string") {
      throw new InvalidParamsError(`The value of header "${name}" must be a string.`);
    }
    if (UNSAFE_IN_VALUE.test(value)) {
      throw new InvalidParamsError(
        `The value of header "${name}" holds a line break or another control character.`,
      );
    }
    checked[name] = value;
  }
  return checked;
}

/**
 * What a base URL may not hold: C0 controls, DEL and C1 controls. The URL parser drops tabs
 * and line breaks and percent-encodes others, so what was given is checked, not what it parses to.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_URL = /[\u0000-\u001f\u007f-\u009f]/;

/** The base URL as the URL parser normalises it (its `href`), without a trailing slash. */
function checkBaseUrl(baseUrl: unknown): string {
  const invalid = (why: string) => new InvalidParamsError(`baseUrl ${why}`);
  if (typeof baseUrl !== "string" || !baseUrl.trim()) throw invalid("must be a URL.");
  if (CONTROL_IN_URL.test(baseUrl)) throw invalid("holds a control character.");
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw invalid("is not a URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid("must be an http or https URL.");
  }
  if (url.username || url.password) {
    throw invalid("must not hold credentials: send them as headers.");
  }
  return url.href.replace(/\/+$/, "");
}

/** A cloud region or project id: what goes into Claude Code's endpoint names, nothing more. */
const cloudName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/);

const claudeCodeMeta = z.looseObject({
  vertex: z.looseObject({ projectId: cloudName, region: cloudName }).optional(),
  bedrock: z.looseObject({ region: cloudName }).optional(),
});

/**
 * A `providers/set` request as the provider it sets. Vertex needs a project and a region,
 * which ACP's request has no field for: `_meta.claudeCode.vertex: { projectId, region }`.
 * Bedrock takes an AWS region in `_meta.claudeCode.bedrock.region` (else the machine's).
 */
export function providerConfigOf(params: z.infer<typeof setShape>): ProviderConfig {
  requireProviderId(params.providerId);
  const apiType = params.apiType;
  if (typeof apiType !== "string" || !isApiType(apiType)) {
    throw new InvalidParamsError(
      `apiType must be one of ${API_TYPES.join(", ")}.`,
      typeof apiType === "string" ? { apiType: echoed(apiType) } : {},
    );
  }
  const baseUrl = checkBaseUrl(params.baseUrl);
  const headers = checkHeaders(params.headers);
  const authorization = Object.entries(headers).find(
    ([name]) => name.toLowerCase() === "authorization",
  );
  if (apiType === "anthropic" && authorization && !BEARER.test(authorization[1])) {
    throw new InvalidParamsError(
      'Claude Code sends Authorization as a bearer token: give it as "Bearer <token>", or the key as x-api-key.',
    );
  }
  const parsed = claudeCodeMeta.safeParse(params._meta?.claudeCode ?? {});
  if (!parsed.success) {
    throw new InvalidParamsError(
      "_meta.claudeCode: vertex takes a projectId and a region, bedrock a region (letters, digits, '.', '_' and '-').",
    );
  }
  const claudeCode = parsed.data;
  if (apiType === "vertex") {
    const vertex = claudeCode.vertex;
    if (!vertex) {
      throw new InvalidParamsError(
        "A vertex provider needs _meta.claudeCode.vertex with a projectId and a region.",
      );
    }
    return { apiType, baseUrl, headers, projectId: vertex.projectId, region: vertex.region };
  }
  const region = apiType === "bedrock" ? claudeCode.bedrock?.region : undefined;
  return { apiType, baseUrl, headers, ...(region ? { region } : {}) };
}

/**
 * A gateway login (`authenticate` with a gateway method): `_meta.gateway: { baseUrl,
 * headers }`, the same provider `providers/set` would set with the method's protocol.
 */
export function gatewayConfigOf(
  apiType: "anthropic" | "bedrock",
  meta: Record<string, unknown> | null | undefined,
): ProviderConfig {
  const gateway = meta?.gateway;
  if (typeof gateway !== "object" || gateway === null || Array.isArray(gateway)) {
    throw new InvalidParamsError("A gateway login needs _meta.gateway with a baseUrl and headers.");
  }
  const { baseUrl, headers } = gateway as Record<string, unknown>;
  return providerConfigOf({ providerId: PROVIDER_ID, apiType, baseUrl, headers, _meta: meta });
}
