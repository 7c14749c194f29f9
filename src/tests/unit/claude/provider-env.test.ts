// What a provider makes of Claude Code's environment, that the cold start tells providers
// apart, and that a header's value is kept out of every log line and wire error.
import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestError } from "@agentclientprotocol/sdk";
import { toRequestError } from "../../../acp/errors.js";
import { providerLaunch } from "../../../claude/provider-env.js";
import { hostKey } from "../../../claude/spare-pool.js";
import { spawnDifference } from "../../../claude/early-start.js";
import { log, setLogLevel } from "../../../logger.js";
import type { ProviderConfig } from "../../../providers/provider-config.js";
import { Providers } from "../../../providers/providers.js";
import { hostQueryOptions } from "../../../session/configuration/claude-env.js";
import { holdSecrets, REDACTED } from "../../../util/secrets.js";

const SECRET = "hdr-secret-5e1d";
const gateway: ProviderConfig = {
  apiType: "anthropic",
  baseUrl: "https://gw.example/anthropic",
  headers: { "x-gw-key": SECRET, "x-team": "ml" },
};

afterEach(() => {
  vi.restoreAllMocks();
  setLogLevel("info");
});

describe("a provider's Claude Code environment", () => {
  it("sends an Anthropic gateway's requests to its base URL with its headers, and none of the agent's credentials", () => {
    const { env } = providerLaunch(gateway)!;
    expect(env).toMatchObject({
      ANTHROPIC_BASE_URL: "https://gw.example/anthropic",
      ANTHROPIC_CUSTOM_HEADERS: `x-gw-key: ${SECRET}\nx-team: ml`,
      ANTHROPIC_API_KEY: undefined,
      CLAUDE_CODE_OAUTH_TOKEN: undefined,
      CLAUDE_CODE_USE_BEDROCK: "0",
    });
    // Claude Code needs a token to start; the gateway's headers carry the real one.
    expect(env.ANTHROPIC_AUTH_TOKEN).toBeTruthy();
  });

  it("pins the routing, and no secret, in the flag settings, above a settings file's env", () => {
    const { settingsEnv } = providerLaunch(gateway)!;
    expect(settingsEnv).toMatchObject({
      ANTHROPIC_BASE_URL: "https://gw.example/anthropic",
      ANTHROPIC_API_KEY: "",
      CLAUDE_CODE_OAUTH_TOKEN: "",
      CLAUDE_CODE_USE_BEDROCK: "0",
      CLAUDE_CODE_USE_VERTEX: "0",
    });
    expect(JSON.stringify(settingsEnv)).not.toContain(SECRET);
    expect(settingsEnv.ANTHROPIC_CUSTOM_HEADERS).toBeUndefined();
  });

  it("an http:// provider is reached directly: every proxy, the agent's own too, is pinned empty and left out of the environment", () => {
    const own = { HTTPS_PROXY: "http://corp-proxy:3128", no_proxy: "localhost" };
    const plain = providerLaunch({ ...gateway, baseUrl: "http://gw.example/anthropic" }, own)!;
    for (const name of ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "ALL_PROXY"]) {
      expect(plain.settingsEnv[name], name).toBe("");
      expect(plain.env, name).toHaveProperty(name, undefined);
    }
    expect(plain.settingsEnv.NO_PROXY).toBe("");
  });

  it("an https:// provider keeps the agent's own proxies (the tunnel is sealed) and pins what certificates are trusted to the agent's own", () => {
    const own = { HTTPS_PROXY: "http://corp-proxy:3128", NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" };
    const sealed = providerLaunch(gateway, own)!;
    expect(sealed.settingsEnv).not.toHaveProperty("HTTPS_PROXY");
    expect(sealed.env).not.toHaveProperty("HTTPS_PROXY");
    expect(sealed.settingsEnv).toMatchObject({
      NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem",
      NODE_TLS_REJECT_UNAUTHORIZED: "",
      SSL_CERT_FILE: "",
    });
  });

  it("every other endpoint, socket and provider switch is pinned off, so a settings file cannot turn one on", () => {
    const { settingsEnv } = providerLaunch(gateway)!;
    expect(settingsEnv).toMatchObject({
      ANTHROPIC_UNIX_SOCKET: "",
      CLAUDE_CODE_API_BASE_URL: "",
      ANTHROPIC_BEDROCK_MANTLE_BASE_URL: "",
      CLAUDE_CODE_USE_MANTLE: "0",
      CLAUDE_CODE_USE_GATEWAY: "0",
      CLAUDE_CODE_USE_ANTHROPIC_AWS: "0",
    });
  });

  it("gives a gateway's Authorization bearer token and x-api-key to Claude Code as its own credentials, never pinned", () => {
    const bearer = providerLaunch({ ...gateway, headers: { Authorization: `Bearer ${SECRET}` } })!;
    expect(bearer.env.ANTHROPIC_AUTH_TOKEN).toBe(SECRET);
    expect(bearer.env.ANTHROPIC_CUSTOM_HEADERS).toBeUndefined();
    expect(bearer.settingsEnv).not.toHaveProperty("ANTHROPIC_AUTH_TOKEN");
    expect(bearer.settingsEnv.ANTHROPIC_API_KEY).toBe("");

    const key = providerLaunch({ ...gateway, headers: { "X-Api-Key": SECRET, "x-team": "ml" } })!;
    expect(key.env.ANTHROPIC_API_KEY).toBe(SECRET);
    expect(key.env.ANTHROPIC_AUTH_TOKEN).toBeUndefined();
    expect(key.env.ANTHROPIC_CUSTOM_HEADERS).toBe("x-team: ml");
    expect(key.settingsEnv).not.toHaveProperty("ANTHROPIC_API_KEY");
    expect(key.settingsEnv.ANTHROPIC_AUTH_TOKEN).toBe("");
    expect(JSON.stringify([bearer.settingsEnv, key.settingsEnv])).not.toContain(SECRET);
  });

  it("makes a Bedrock gateway skip AWS's own credentials, and a Bedrock without headers use them", () => {
    const bedrock: ProviderConfig = {
      apiType: "bedrock",
      baseUrl: "https://bedrock.gw.example",
      headers: { authorization: `Bearer ${SECRET}` },
      region: "eu-central-1",
    };
    expect(providerLaunch(bedrock)!.env).toMatchObject({
      CLAUDE_CODE_USE_BEDROCK: "1",
      ANTHROPIC_BEDROCK_BASE_URL: "https://bedrock.gw.example",
      CLAUDE_CODE_SKIP_BEDROCK_AUTH: "1",
      AWS_REGION: "eu-central-1",
    });
    const own = providerLaunch({ ...bedrock, headers: {} })!.env;
    expect(own.CLAUDE_CODE_SKIP_BEDROCK_AUTH).toBeUndefined();
    expect(own.ANTHROPIC_CUSTOM_HEADERS).toBeUndefined();
    expect("AWS_ACCESS_KEY_ID" in own).toBe(false);
  });

  it("changes nothing without a provider", () => {
    expect(providerLaunch(undefined)).toBeUndefined();
  });
});

describe("the cold start keys on the provider", () => {
  const env = { HOME: "/home/u", ANTHROPIC_API_KEY: "sk-agent" };
  const key = (config?: ProviderConfig) =>
    hostKey({
      ...hostQueryOptions({
        executable: "/bin/claude",
        env,
        client: {},
        provider: providerLaunch(config),
      }),
      cwd: "/",
      canUseTool: vi.fn(),
    });

  it("a prewarmed spare started for one provider does not match a session of another", () => {
    const keys = [
      key(undefined),
      key(gateway),
      key({ ...gateway, baseUrl: "https://other.example" }),
      key({ ...gateway, headers: { "x-gw-key": "another-token" } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("a process started early or at launch for one provider is not handed to another", () => {
    const spawn = (overlay: NodeJS.ProcessEnv) => ({
      command: "/bin/claude",
      args: [],
      env: { ...env, ...overlay },
    });
    expect(spawnDifference(spawn({}), spawn(providerLaunch(gateway)!.env))).toBe("environment");
  });
});

describe("secrets stay secret", () => {
  it("a held header value is redacted from log lines at every level", () => {
    holdSecrets([SECRET]);
    setLogLevel("debug");
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    log.debug(`claude: request headers x-gw-key: ${SECRET}`);
    log.info("detail", { headers: { "x-gw-key": SECRET } });
    log.error("failed", new Error(`401 for token ${SECRET}`));
    expect(written).toHaveLength(3);
    expect(written.join("")).not.toContain(SECRET);
    expect(written.join("")).toContain(REDACTED);
  });

  it("a bearer header's token alone is redacted too (Claude Code gets the token without 'Bearer')", async () => {
    const token = "tok-only-8c2e1f";
    // Bedrock: no model listing is asked for, nothing leaves the machine.
    await new Providers({}).set({
      ...gateway,
      apiType: "bedrock",
      headers: { Authorization: `Bearer ${token}` },
    });
    setLogLevel("debug");
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    log.debug(`claude: using token ${token}`);
    expect(written.join("")).not.toContain(token);
  });

  it("a wire error quoting a held header value (a gateway echoing it) is redacted", () => {
    holdSecrets([SECRET]);
    const error = toRequestError(new RequestError(-32603, `refused ${SECRET}`, { token: SECRET }));
    expect(error.code).toBe(-32603);
    expect(JSON.stringify({ m: error.message, d: error.data })).not.toContain(SECRET);
  });
});
