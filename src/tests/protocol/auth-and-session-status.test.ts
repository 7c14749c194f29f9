// auth/status, auth/status_update and session/status, through a client of ACP's unstable
// schema: the SDK's own validation reads every response and notification.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequestError } from "@agentclientprotocol/sdk/unstable";
import {
  client,
  methods,
  type AuthStatusUpdateNotification,
} from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../agent.js";
import { authenticationFailure, fakeClaude } from "../support/fake-claude.js";
import { fakeTranscripts } from "../support/fake-transcripts.js";
import { isolatedEnv } from "../support/in-process.js";
import { streamPair } from "../support/in-process-v2.js";
import { unsafeStrings } from "../support/unsafe-text.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A Claude login as `claude auth login` saves it, with the account record it keeps. */
function writeLogin(
  configDir: string,
  login: { expiresAt?: number; refreshToken?: string; subscriptionType?: string } = {},
): void {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, ".credentials.json"),
    JSON.stringify({
      claudeAiOauth: {
        accessToken: "sk-ant-oat01-SECRET-ACCESS",
        refreshToken: login.refreshToken ?? "sk-ant-ort01-SECRET-REFRESH",
        expiresAt: login.expiresAt ?? Date.now() + 3_600_000,
        scopes: ["user:inference", "user:profile"],
        subscriptionType: login.subscriptionType ?? "max",
      },
    }),
  );
  writeFileSync(
    join(configDir, ".claude.json"),
    JSON.stringify({
      oauthAccount: {
        emailAddress: "ann@example.com",
        organizationName: "Example Org",
        displayName: "Ann",
      },
    }),
  );
}

async function connect(env: NodeJS.ProcessEnv = isolatedEnv()) {
  const claude = fakeClaude();
  const transcripts = fakeTranscripts();
  const updates: AuthStatusUpdateNotification[] = [];
  let heard: (() => void) | undefined;
  // Over a stream, as over stdio: the unstable client is another build of the SDK's apps.
  const [agentSide, clientSide] = streamPair();
  const agentConnection = createAgent({
    startQuery: claude.startQuery,
    transcripts,
    resolveExecutable: () => "/fake/claude",
    env,
  }).connect(agentSide);
  const connection = client({ name: "status-client" })
    .onNotification(methods.client.auth.statusUpdate, ({ params }) => {
      updates.push(params);
      heard?.();
    })
    .connect(clientSide);
  cleanups.push(() => {
    connection.close();
    agentConnection.close();
  });
  const agent = connection.agent;
  const init = await agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
  });
  /** Resolves once `count` updates have arrived. */
  const updatesArrived = (count: number) =>
    new Promise<void>((resolve) => {
      heard = () => updates.length >= count && resolve();
      heard();
    });
  const status = () => agent.request(methods.agent.auth.status, {});
  return { agent, init, claude, transcripts, updates, updatesArrived, status, env };
}

const configDirOf = (env: NodeJS.ProcessEnv) => env.CLAUDE_CONFIG_DIR!;

describe("auth/status", () => {
  it("is advertised as agentCapabilities.auth.status, next to logout", async () => {
    const { init } = await connect();
    expect(init.agentCapabilities?.auth).toEqual({ logout: {}, status: {} });
  });

  it("without any credential is unauthenticated, with no account", async () => {
    const { status } = await connect();
    expect(await status()).toEqual({ state: "unauthenticated", accounts: [] });
  });

  it("an API key in the environment is authenticated, labelled, and its value shows nowhere", async () => {
    const { status } = await connect(isolatedEnv({ ANTHROPIC_API_KEY: "sk-ant-api03-SECRET" }));
    const answer = await status();
    expect(answer).toEqual({
      state: "authenticated",
      accounts: [{ label: "Anthropic API key", active: true }],
    });
    expect(JSON.stringify(answer)).not.toContain("SECRET");
  });

  it("a Claude login shows its plan, name, email and organization from Claude Code's own record, and no token", async () => {
    const env = isolatedEnv();
    writeLogin(configDirOf(env));
    const answer = await (await connect(env)).status();
    expect(answer).toEqual({
      state: "authenticated",
      accounts: [
        {
          label: "Claude Max",
          active: true,
          name: "Ann",
          email: "ann@example.com",
          organization: "Example Org",
        },
      ],
    });
    expect(JSON.stringify(answer)).not.toContain("SECRET");
  });

  it("the account record's name, email and organization are cleaned: no escape sequence or bidi control reaches the client", async () => {
    const env = isolatedEnv();
    writeLogin(configDirOf(env));
    writeFileSync(
      join(configDirOf(env), ".claude.json"),
      JSON.stringify({
        oauthAccount: {
          displayName: "\u001b[31mAnn\u001b]0;owned\u0007",
          emailAddress: "ann@example.com\u202e",
          organizationName: "Example\u009b Org",
        },
      }),
    );
    const answer = await (await connect(env)).status();
    expect(unsafeStrings(answer)).toEqual([]);
    expect(answer.accounts?.[0]?.name).toContain("Ann");
    expect(answer.accounts?.[0]?.email).toContain("ann@example.com");
  });

  it("lists every credential in Claude Code's order, the one in effect active: an API key wins over a login", async () => {
    const env = isolatedEnv({ ANTHROPIC_API_KEY: "k" });
    writeLogin(configDirOf(env), { subscriptionType: "pro" });
    const { accounts } = await (await connect(env)).status();
    expect(accounts?.map(({ label, active }) => [label, active])).toEqual([
      ["Anthropic API key", true],
      ["Claude Pro", false],
    ]);
  });

  it("Bedrock, Vertex or Foundry turned on in the environment or in the user's settings is authenticated", async () => {
    const bedrock = await (await connect(isolatedEnv({ CLAUDE_CODE_USE_BEDROCK: "1" }))).status();
    expect(bedrock).toEqual({
      state: "authenticated",
      accounts: [{ label: "Amazon Bedrock", active: true }],
    });
    const env = isolatedEnv();
    mkdirSync(configDirOf(env), { recursive: true });
    writeFileSync(
      join(configDirOf(env), "settings.json"),
      JSON.stringify({ env: { CLAUDE_CODE_USE_VERTEX: "true" } }),
    );
    expect((await (await connect(env)).status()).accounts).toEqual([
      { label: "Google Vertex AI", active: true },
    ]);
  });

  it("a login whose token expired without a refresh token is unauthenticated: a prompt would fail", async () => {
    const env = isolatedEnv();
    writeLogin(configDirOf(env), { expiresAt: Date.now() - 1_000, refreshToken: "" });
    const answer = await (await connect(env)).status();
    expect(answer.state).toBe("unauthenticated");
    expect(answer.accounts).toEqual([
      expect.objectContaining({ label: "Claude Max", active: false }),
    ]);
  });

  it("changes nothing and starts no Claude Code", async () => {
    const { status, claude } = await connect();
    await status();
    await status();
    expect(claude.started).toHaveLength(0);
  });
});

describe("auth/status_update", () => {
  it("a login written while the agent runs (a login in a terminal) is told once; so is the logout that removes it", async () => {
    const { updates, updatesArrived, env, status } = await connect();
    // Answered once the agent watches (it starts at initialize).
    expect((await status()).state).toBe("unauthenticated");
    writeLogin(configDirOf(env));
    await updatesArrived(1);
    expect(updates[0]).toEqual(
      expect.objectContaining({
        state: "authenticated",
        accounts: [expect.objectContaining({ label: "Claude Max", active: true })],
      }),
    );
    rmSync(join(configDirOf(env), ".credentials.json"));
    await updatesArrived(2);
    expect(updates[1]).toEqual(expect.objectContaining({ state: "unauthenticated" }));
  });

  it("providers/set and providers/disable are each told once: the gateway is the account in effect, by host alone", async () => {
    const { agent, updates, updatesArrived, status } = await connect();
    expect((await status()).state).toBe("unauthenticated");
    await agent.request(methods.agent.providers.set, {
      providerId: "main",
      apiType: "anthropic",
      baseUrl: "https://gateway.example.com/v1?token=x",
      headers: { authorization: "Bearer SECRET" },
    });
    await updatesArrived(1);
    expect(updates).toEqual([
      {
        state: "authenticated",
        accounts: [{ label: "LLM gateway (gateway.example.com, set by the client)", active: true }],
      },
    ]);
    expect(JSON.stringify(updates)).not.toContain("SECRET");
    await agent.request(methods.agent.providers.disable, { providerId: "main" });
    await updatesArrived(2);
    expect(updates.slice(1)).toEqual([{ state: "unauthenticated", accounts: [] }]);
  });

  it("a prompt refused for its credentials turns the status unauthenticated, told once, until the credentials change: a new login turns it back", async () => {
    const { agent, claude, updates, updatesArrived, env, status } = await connect(
      isolatedEnv({ ANTHROPIC_API_KEY: "sk-expired" }),
    );
    const cwd = mkdtempSync(join(tmpdir(), "acp-auth-status-"));
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const query = claude.started[0]!;
    const prompt = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((error: unknown) => error);
    await query.waitForSent(1);
    query.emit(...authenticationFailure("Invalid API key · Please run /login"));
    expect(((await prompt) as RequestError).code).toBe(-32000);
    await updatesArrived(1);
    expect(updates).toEqual([
      { state: "unauthenticated", accounts: [{ label: "Anthropic API key", active: true }] },
    ]);
    expect((await status()).state).toBe("unauthenticated");
    // Claude Code rewriting its global config for its own bookkeeping changes no credential.
    mkdirSync(configDirOf(env), { recursive: true });
    writeFileSync(join(configDirOf(env), ".claude.json"), JSON.stringify({ numStartups: 7 }));
    await agent.request(methods.agent.providers.disable, { providerId: "main" });
    expect((await status()).state).toBe("unauthenticated");
    expect(updates).toHaveLength(1);
    writeLogin(configDirOf(env));
    await updatesArrived(2);
    expect(updates[1]?.state).toBe("authenticated");
  });
});

describe("session/status", () => {
  it("is advertised as sessionCapabilities.status", async () => {
    const { init } = await connect();
    expect(init.agentCapabilities?.sessionCapabilities?.status).toEqual({});
  });

  it("open for a session held here, saved for one Claude Code saved, -32002 with the id otherwise; nothing is opened", async () => {
    const { agent, claude, transcripts } = await connect();
    const cwd = mkdtempSync(join(tmpdir(), "acp-session-status-"));
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    transcripts.add({ sessionId: "0b7e2c2e-0000-4000-8000-000000000001", cwd });
    const started = claude.started.length;
    expect(await agent.request(methods.agent.session.status, { sessionId })).toEqual({
      status: "open",
    });
    expect(
      await agent.request(methods.agent.session.status, {
        sessionId: "0b7e2c2e-0000-4000-8000-000000000001",
      }),
    ).toEqual({ status: "saved" });
    const unknown = await agent
      .request(methods.agent.session.status, { sessionId: "no-such-session" })
      .catch((error: unknown) => error);
    expect((unknown as RequestError).code).toBe(-32002);
    expect(JSON.stringify((unknown as RequestError).data)).toContain("no-such-session");
    expect(claude.started).toHaveLength(started);
    await agent.request(methods.agent.session.close, { sessionId });
    const closed = await agent
      .request(methods.agent.session.status, { sessionId })
      .catch((error: unknown) => error);
    expect((closed as RequestError).code).toBe(-32002);
  });
});
