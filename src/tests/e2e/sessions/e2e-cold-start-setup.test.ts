// End-to-end: the cold start never hands a session a Claude Code process started for
// another system prompt, other setting sources, other client options or another provider:
// not a prewarmed spare, not a process started early from a remembered configuration, not
// the process started at the agent's launch. Each session's requests carry exactly its own
// prompt, and go to its own provider.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedApi, systemText, type ScriptedApi } from "../../../scripted-api/index.js";
import type { NewSessionRequest } from "@agentclientprotocol/sdk";
import { startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";

let gateway: ScriptedApi | undefined;
afterEach(async () => {
  await stopAllE2E();
  await gateway?.close();
  gateway = undefined;
});

/** A gateway that answers only requests with its header; `providers/set` sends the agent there. */
async function useGateway(e2e: E2E): Promise<ScriptedApi> {
  gateway = await startScriptedApi(
    { turns: [], fallbackText: "From the gateway." },
    { requireHeader: { name: "x-gw", value: "gw-token-cold" } },
  );
  await e2e.client.request("providers/set", {
    providerId: "main",
    apiType: "anthropic",
    baseUrl: gateway.url,
    headers: { "x-gw": "gw-token-cold" },
  });
  return gateway;
}

/** Whether the session's main-loop requests went to the gateway, and none elsewhere. */
function servedByGateway(e2e: E2E, api: ScriptedApi, sessionId: string): boolean {
  const of = (a: ScriptedApi) =>
    a.requests.filter((r) => r.kind === "main" && r.sessionId === sessionId).length;
  return of(api) > 0 && of(e2e.api) === 0;
}

const hello = [{ content: [{ type: "text" as const, text: "Hello." }] }];
/** An RFD system prompt; the stable request type does not name the field. */
const prompted = (text: string): Partial<NewSessionRequest> =>
  ({
    systemPrompt: { mode: "append", content: [{ type: "text", text }] },
  }) as Partial<NewSessionRequest>;
const HANDED = "is handed to the SDK";

/** The system prompt of the session's last main-loop request. */
function systemOf(e2e: E2E, sessionId: string): string {
  const main = e2e.api.requests.filter((r) => r.kind === "main" && r.sessionId === sessionId);
  return systemText(main.at(-1)!);
}

const sharedCache = () => mkdtempSync(join(tmpdir(), "acp-setup-cache-"));
const starts = (cache: string) => join(cache, "claude-agent-acp", "starts.json");

/** A run that opened one session with `extra`, prompted it, and saved how it started. */
async function earlierRun(
  env: Record<string, string>,
  extra: Record<string, unknown>,
  cwd?: string,
) {
  const first = await startE2E({ scenario: hello, env });
  const { sessionId } = await first.newSession({ ...extra, ...(cwd ? { cwd } : {}) });
  await first.prompt(sessionId, "Hi.");
  await expect
    .poll(
      () =>
        existsSync(starts(env.XDG_CACHE_HOME!)) &&
        readFileSync(starts(env.XDG_CACHE_HOME!), "utf8"),
      {
        timeout: 10_000,
      },
    )
    .toContain(cwd ? `"launch"` : `"plans"`);
  await first.stop();
}

describe("the cold start keys on what a client configures", () => {
  it("a prewarmed spare (started without a system prompt) does not serve a session that has one", async () => {
    const e2e = await startE2E({ scenario: hello, env: { CLAUDE_AGENT_ACP_PREWARM: "1" } });
    await expect
      .poll(() => e2e.log().includes("spare: a prewarmed Claude Code process is ready"), {
        timeout: 30_000,
      })
      .toBe(true);
    const { sessionId } = await e2e.newSession(prompted("Spare-less Zeta."));
    await e2e.prompt(sessionId, "Hi.");
    expect(e2e.log()).toContain("spare: the prewarmed process does not match this session");
    expect(e2e.log()).not.toContain("spare: the session claims the prewarmed process");
    expect(systemOf(e2e, sessionId)).toContain("Spare-less Zeta.");
  });

  it("a configuration remembered with one system prompt is not started early for another", async () => {
    const env = { XDG_CACHE_HOME: sharedCache() };
    await earlierRun(env, prompted("Prompt A."));

    // Only a run's first session starts early (the SDK is not loaded yet); that the same
    // configuration is started early is e2e-cold-start's.
    const other = await startE2E({ scenario: hello, env });
    const b = await other.newSession(prompted("Prompt B."));
    await other.prompt(b.sessionId, "Hi.");
    expect(other.log()).not.toContain(HANDED);
    expect(systemOf(other, b.sessionId)).toContain("Prompt B.");
    expect(systemOf(other, b.sessionId)).not.toContain("Prompt A.");
  });

  it("the process started at launch for a session with a system prompt does not serve a first session without one", async () => {
    const env = { XDG_CACHE_HOME: sharedCache(), CLAUDE_AGENT_ACP_LAUNCH_START: "1" };
    const project = mkdtempSync(join(tmpdir(), "acp-setup-project-"));
    await earlierRun(env, { _meta: { systemPrompt: "You are Launchy." } }, project);

    const e2e = await startE2E({ scenario: hello, env });
    const { sessionId } = await e2e.newSession({ cwd: project });
    await e2e.prompt(sessionId, "Hi.");
    expect(e2e.log()).toContain("Claude Code started at launch is not used");
    expect(systemOf(e2e, sessionId)).not.toContain("You are Launchy.");
  });

  it("a prewarmed spare started for the agent's own provider does not serve a session after providers/set", async () => {
    const e2e = await startE2E({ scenario: hello, env: { CLAUDE_AGENT_ACP_PREWARM: "1" } });
    await expect
      .poll(() => e2e.log().includes("spare: a prewarmed Claude Code process is ready"), {
        timeout: 30_000,
      })
      .toBe(true);
    const api = await useGateway(e2e);
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Hi.");
    expect(servedByGateway(e2e, api, sessionId)).toBe(true);
  });

  it("the process started at launch for the agent's own provider does not serve a first session after providers/set", async () => {
    const env = { XDG_CACHE_HOME: sharedCache(), CLAUDE_AGENT_ACP_LAUNCH_START: "1" };
    const project = mkdtempSync(join(tmpdir(), "acp-setup-project-"));
    await earlierRun(env, {}, project);

    const e2e = await startE2E({ scenario: hello, env });
    const api = await useGateway(e2e);
    const { sessionId } = await e2e.newSession({ cwd: project });
    await e2e.prompt(sessionId, "Hi.");
    expect(e2e.log()).toContain("Claude Code started at launch is not used");
    expect(servedByGateway(e2e, api, sessionId)).toBe(true);
  });
});
