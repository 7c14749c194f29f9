// Providers and gateways over the real protocol layer, with a fake Claude Code: what
// `providers/list`, `providers/set`, `providers/disable` and the gateway login answer, the
// environment each session's Claude Code is started with, and that a header's value is
// never given back.
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { answerOn, request, rpcError } from "../support/protocol-requests.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";
import { rpcError as v2RpcError, v2Session } from "../support/in-process-v2.js";
import { fakeClaude } from "../support/fake-claude.js";

const SECRET = "gw-secret-7f3a9c";
const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const GATEWAY = {
  providerId: "main",
  apiType: "anthropic",
  baseUrl: "http://127.0.0.1:9/gateway",
  headers: { "x-gateway-key": SECRET },
};

async function setup(
  options: {
    env?: NodeJS.ProcessEnv;
    auth?: Record<string, unknown>;
    models?: Array<{ value: string; displayName: string; description: string }>;
  } = {},
) {
  const claude = fakeClaude(options.models ? { models: options.models } : {});
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    env: isolatedEnv({ ANTHROPIC_API_KEY: "sk-agent-own", ...options.env }),
    ...(options.auth ? { clientCapabilities: { auth: options.auth } } : {}),
  });
  cleanup.push(() => harness.close());
  return { ...harness, claude, cwd: mkdtempSync(`${tmpdir()}/acp-providers-`) };
}

describe("providers/list", () => {
  it("lists the one provider with the routing the agent's environment gives, without credentials", async () => {
    const { agent } = await setup({ env: { ANTHROPIC_BASE_URL: "http://proxy.internal:8080" } });
    expect(await request(agent, "providers/list", {})).toEqual({
      providers: [
        {
          providerId: "main",
          supported: ["anthropic", "bedrock", "vertex"],
          required: false,
          current: { apiType: "anthropic", baseUrl: "http://proxy.internal:8080" },
        },
      ],
    });
  });

  it("says Bedrock when the environment turns it on", async () => {
    const { agent } = await setup({
      env: { CLAUDE_CODE_USE_BEDROCK: "1", AWS_REGION: "eu-west-1" },
    });
    const { providers } = await request(agent, "providers/list", {});
    expect(providers).toMatchObject([
      {
        current: { apiType: "bedrock", baseUrl: "https://bedrock-runtime.eu-west-1.amazonaws.com" },
      },
    ]);
  });

  it("is advertised as the unstable providers capability", async () => {
    const harness = await connectInProcess({ startQuery: fakeClaude().startQuery });
    cleanup.push(() => harness.close());
    const init = await harness.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(init.agentCapabilities).toMatchObject({ providers: {} });
  });
});

describe("providers/set", () => {
  it("routes new sessions to the gateway with its headers, and the listing shows it without them", async () => {
    const { agent, claude, cwd } = await setup();
    expect(await request(agent, "providers/set", GATEWAY)).toEqual({});
    const listed = await request(agent, "providers/list", {});
    expect(listed.providers).toMatchObject([
      { current: { apiType: "anthropic", baseUrl: "http://127.0.0.1:9/gateway" } },
    ]);
    expect(JSON.stringify(listed)).not.toContain(SECRET);

    await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const env = claude.started[0]!.options.env;
    expect(env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:9/gateway");
    expect(env.ANTHROPIC_CUSTOM_HEADERS).toBe(`x-gateway-key: ${SECRET}`);
    // The agent's own key never goes to the gateway.
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it("stores the base URL as the URL parser normalises it: that is what the listing shows and Claude Code gets", async () => {
    const { agent, claude, cwd } = await setup();
    await request(agent, "providers/set", {
      ...GATEWAY,
      baseUrl: "  HTTP://GW.Example:80/a/../gateway v1/  ",
    });
    const listed = await request(agent, "providers/list", {});
    expect(listed.providers).toMatchObject([
      { current: { apiType: "anthropic", baseUrl: "http://gw.example/gateway%20v1" } },
    ]);
    await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    expect(claude.started[0]!.options.env.ANTHROPIC_BASE_URL).toBe(
      "http://gw.example/gateway%20v1",
    );
  });

  it("moves an open session to the new provider at its next turn, resuming its conversation", async () => {
    const { agent, claude, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    await answerOn(agent, claude, 0, sessionId);
    expect(claude.started[0]!.options.env.ANTHROPIC_API_KEY).toBe("sk-agent-own");

    await request(agent, "providers/set", GATEWAY);
    await answerOn(agent, claude, 1, sessionId);
    const second = claude.started[1]!;
    expect(second.options.resume).toBe(sessionId);
    expect(second.options.env.ANTHROPIC_BASE_URL).toBe(GATEWAY.baseUrl);

    await request(agent, "providers/disable", { providerId: "main" });
    await answerOn(agent, claude, 2, sessionId);
    const third = claude.started[2]!;
    expect(third.options.resume).toBe(sessionId);
    expect(third.options.env.ANTHROPIC_API_KEY).toBe("sk-agent-own");
    expect(third.options.env.ANTHROPIC_BASE_URL).toBeUndefined();
    const listed = await request(agent, "providers/list", {});
    expect(listed.providers).toMatchObject([
      { current: { apiType: "anthropic", baseUrl: "https://api.anthropic.com" } },
    ]);
  });

  it("sets Vertex with the project and region of _meta.claudeCode.vertex", async () => {
    const { agent, claude, cwd } = await setup();
    await request(agent, "providers/set", {
      providerId: "main",
      apiType: "vertex",
      baseUrl: "https://europe-west4-aiplatform.googleapis.com",
      _meta: { claudeCode: { vertex: { projectId: "acme-ml", region: "europe-west4" } } },
    });
    await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    expect(claude.started[0]!.options.env).toMatchObject({
      CLAUDE_CODE_USE_VERTEX: "1",
      ANTHROPIC_VERTEX_PROJECT_ID: "acme-ml",
      CLOUD_ML_REGION: "europe-west4",
    });
    // No headers: the machine's Google credentials, as Claude Code uses them.
    expect(claude.started[0]!.options.env.CLAUDE_CODE_SKIP_VERTEX_AUTH).toBeUndefined();
  });

  it.each([
    ["an unknown provider", { ...GATEWAY, providerId: "openai" }, "Unknown provider"],
    ["an unknown protocol", { ...GATEWAY, apiType: "openai" }, "apiType must be one of"],
    ["a base URL that is not one", { ...GATEWAY, baseUrl: "not a url" }, "baseUrl is not a URL"],
    ["a base URL of another scheme", { ...GATEWAY, baseUrl: "ftp://x" }, "http or https"],
    [
      "a base URL with credentials",
      { ...GATEWAY, baseUrl: `https://user:${SECRET}@gw.example` },
      "must not hold credentials",
    ],
    [
      "a header value with a line break",
      { ...GATEWAY, headers: { "x-gateway-key": `${SECRET}\r\nx-evil: 1` } },
      "line break",
    ],
    ...[
      ["CR LF", "\r\nx-evil: 1"],
      ["ESC", "\u001b[31m"],
      ["BEL", "\u0007"],
      ["tab", "\t"],
      ["DEL", "\u007f"],
      ["C1 (NEL)", "\u0085"],
      ["C1 (CSI)", "\u009b2J"],
    ].map(([name, control]): [string, typeof GATEWAY, string] => [
      `a base URL holding a control character (${name})`,
      { ...GATEWAY, baseUrl: `https://gw.example/${SECRET}${control}` },
      "baseUrl holds a control character",
    ]),
    ["a header name that is not one", { ...GATEWAY, headers: { "x key": SECRET } }, "header name"],
    ["a header value that is no string", { ...GATEWAY, headers: { "x-n": 7 } }, "must be a string"],
    ["Vertex without its project", { ...GATEWAY, apiType: "vertex" }, "projectId and a region"],
    [
      "a Bedrock region that is no region",
      {
        ...GATEWAY,
        apiType: "bedrock",
        _meta: { claudeCode: { bedrock: { region: "us\neast" } } },
      },
      "bedrock a region",
    ],
    [
      "an Authorization that is no bearer token",
      { ...GATEWAY, headers: { Authorization: `Basic ${SECRET}` } },
      "bearer token",
    ],
  ])("refuses %s with -32602, echoes no secret, and changes nothing", async (_, params, words) => {
    const { agent } = await setup();
    await request(agent, "providers/set", GATEWAY);
    const before = await request(agent, "providers/list", {});
    const error = await rpcError(request(agent, "providers/set", params));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(words);
    expect(JSON.stringify({ message: error.message, data: error.data })).not.toContain(SECRET);
    expect(await request(agent, "providers/list", {})).toEqual(before);
  });

  it("refuses to disable an unknown provider with -32602", async () => {
    const { agent } = await setup();
    const error = await rpcError(request(agent, "providers/disable", { providerId: "openai" }));
    expect(error.code).toBe(-32602);
  });
});

describe("models from the gateway", () => {
  async function gateway(answer: (url: string) => [number, unknown]): Promise<string> {
    const server: Server = createServer((req, res) => {
      const [status, body] = answer(req.url ?? "/");
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const modelOption = (options: unknown) =>
    (options as Array<{ id: string; options: Array<{ value: string; name: string }> }>).find(
      (o) => o.id === "model",
    );

  it("offers the models the gateway lists in the picker", async () => {
    const baseUrl = await gateway((url) =>
      url.startsWith("/v1/models")
        ? [
            200,
            {
              data: [
                { id: "corp-sonnet", display_name: "Corp Sonnet" },
                // Not a model id: never offered, nor sent to Claude Code.
                { id: "evil\u001b[2Jmodel", display_name: "Evil" },
              ],
              has_more: false,
            },
          ]
        : [404, {}],
    );
    const { agent, cwd } = await setup();
    await request(agent, "providers/set", { ...GATEWAY, baseUrl });
    const session = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const values = modelOption(session.configOptions)?.options.map((o) => o.value);
    expect(values).toContain("corp-sonnet");
    expect(JSON.stringify(values)).not.toContain("evil");
  });

  it("an open session's picker follows the provider: the gateway's models, then Claude Code's again", async () => {
    const baseUrl = await gateway((url) =>
      url.startsWith("/v1/models")
        ? [200, { data: [{ id: "corp-sonnet", display_name: "Corp Sonnet" }], has_more: false }]
        : [404, {}],
    );
    const claudeModels = [
      { value: "default", displayName: "Default", description: "Claude Code's default" },
      { value: "claude-opus-4-5", displayName: "Opus", description: "Opus" },
    ];
    const harness = await setup({ models: claudeModels });
    const { agent, cwd, updates } = harness;
    const { sessionId } = await harness.newStartedSession(cwd);
    const latestModels = () => {
      const update = updates
        .filter((n) => n.sessionId === sessionId)
        .map((n) => n.update)
        .filter((u) => u.sessionUpdate === "config_option_update")
        .at(-1);
      const option =
        update && "configOptions" in update ? modelOption(update.configOptions) : undefined;
      return {
        values: option?.options.map((o) => o.value) ?? [],
        current: (option as { currentValue?: string } | undefined)?.currentValue,
      };
    };

    await request(agent, "providers/set", { ...GATEWAY, baseUrl });
    await expect.poll(() => latestModels().values).toContain("corp-sonnet");
    expect(latestModels().values).not.toContain("claude-opus-4-5");
    await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "corp-sonnet",
    });

    await request(agent, "providers/disable", { providerId: "main" });
    await expect.poll(() => latestModels().values).toContain("claude-opus-4-5");
    // The gateway's model is not served by the provider the session is back on.
    expect(latestModels().values).not.toContain("corp-sonnet");
    expect(latestModels().current).not.toBe("corp-sonnet");
  });

  it("keeps Claude Code's list when the gateway lists none", async () => {
    const baseUrl = await gateway(() => [404, { error: "no" }]);
    const { agent, cwd } = await setup();
    await request(agent, "providers/set", { ...GATEWAY, baseUrl });
    const session = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const values = modelOption(session.configOptions)?.options.map((o) => o.value) ?? [];
    expect(values).not.toContain("corp-sonnet");
  });
});

describe("gateway login", () => {
  it("is offered to clients that declare auth._meta.gateway, and sets the provider", async () => {
    const { agent, claude, cwd } = await setup({ auth: { _meta: { gateway: true } } });
    const init = await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { auth: { _meta: { gateway: true } } },
    });
    expect(init.authMethods).toEqual([
      expect.objectContaining({ id: "gateway", _meta: { gateway: { protocol: "anthropic" } } }),
      expect.objectContaining({
        id: "gateway-bedrock",
        _meta: { gateway: { protocol: "bedrock" } },
      }),
    ]);
    await agent.request(methods.agent.authenticate, {
      methodId: "gateway",
      _meta: { gateway: { baseUrl: GATEWAY.baseUrl, headers: GATEWAY.headers } },
    });
    const listed = await request(agent, "providers/list", {});
    expect(listed.providers).toMatchObject([{ current: { baseUrl: GATEWAY.baseUrl } }]);
    await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    expect(claude.started[0]!.options.env.ANTHROPIC_CUSTOM_HEADERS).toContain(SECRET);
  });

  it("is not offered to other clients", async () => {
    const harness = await connectInProcess({ startQuery: fakeClaude().startQuery });
    cleanup.push(() => harness.close());
    const init = await harness.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(init.authMethods ?? []).toEqual([]);
  });

  it("logout forgets the provider the client set, even when Claude Code's own logout fails", async () => {
    const { agent } = await setup({ auth: { _meta: { gateway: true } } });
    await request(agent, "providers/set", GATEWAY);
    await agent.request(methods.agent.logout, {}).catch(() => undefined);
    const listed = await request(agent, "providers/list", {});
    expect(listed.providers).toMatchObject([
      { current: { apiType: "anthropic", baseUrl: "https://api.anthropic.com" } },
    ]);
  });

  it("without a gateway to use is -32602", async () => {
    const { agent } = await setup({ auth: { _meta: { gateway: true } } });
    const error = await rpcError(
      agent.request(methods.agent.authenticate, { methodId: "gateway" }),
    );
    expect(error.code).toBe(-32602);
  });
});

describe("providers in the ACP v2 draft", () => {
  it("are advertised, and set, list and disable as in v1", async () => {
    const { agent, initialized, claude, cwd } = await v2Session();
    expect(initialized.capabilities).toMatchObject({ providers: {} });
    await agent.request(v2.methods.agent.providers.set, GATEWAY);
    const listed = await agent.request(v2.methods.agent.providers.list, {});
    expect(listed.providers).toMatchObject([{ current: { baseUrl: GATEWAY.baseUrl } }]);
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    await agent.request(v2.methods.agent.session.new, { cwd });
    expect(claude.started.at(-1)!.options.env.ANTHROPIC_BASE_URL).toBe(GATEWAY.baseUrl);
    await agent.request(v2.methods.agent.providers.disable, { providerId: "main" });
    const error = await agent
      .request(v2.methods.agent.providers.set, { ...GATEWAY, baseUrl: "nope" })
      .then(() => undefined, v2RpcError);
    expect(error?.code).toBe(-32602);
  });
});
