// ACP's workspace-trust RFD over the real protocol layer, with a fake Claude Code: the RFD's
// own examples replayed (the capability, a session/new response, trust/apply), its validation
// rules, what a session in a folder the user has not trusted starts Claude Code with, and the
// ask before the first prompt for clients that do not know the RFD.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  type ClientContext,
  type RequestPermissionRequest,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { IGNORE_PERSISTED_TRUST } from "../../claude/trust-store.js";
import { trustRecords } from "../support/trusted-folder.js";
import { answerOn, request, rpcError } from "../support/protocol-requests.js";
import { connectInProcess, isolatedEnv, type PermissionHandler } from "../support/in-process.js";
import { fakeClaude, result, streamedText } from "../support/fake-claude.js";

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

/** A folder as a fresh clone would be: a CLAUDE.md and settings, trusted by nobody. */
function clonedFolder(): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "acp-trust-")));
  mkdirSync(join(cwd, ".claude"));
  writeFileSync(join(cwd, "CLAUDE.md"), "Instructions.\n");
  writeFileSync(join(cwd, ".claude", "settings.json"), "{}\n");
  return cwd;
}

async function setup(options: { env?: NodeJS.ProcessEnv; onPermission?: PermissionHandler } = {}) {
  const claude = fakeClaude();
  const env = isolatedEnv(options.env);
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    env,
    ...(options.onPermission ? { onPermission: options.onPermission } : {}),
  });
  cleanup.push(() => harness.close());
  return { ...harness, claude, env };
}

const newSession = (agent: ClientContext, cwd: string) =>
  request(agent, "session/new", { cwd, mcpServers: [] });

describe("workspace trust: the RFD's examples", () => {
  it("advertises agentCapabilities.sessionCapabilities.workspaceTrust as the RFD's example does", async () => {
    const { agent } = await setup();
    const response = await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(response.agentCapabilities?.sessionCapabilities).toMatchObject({ workspaceTrust: {} });
  });

  it("a session/new response in a folder nobody trusted carries status untrusted with cwd, the ignored paths and the decisions, and no null anywhere", async () => {
    const { agent } = await setup();
    const cwd = clonedFolder();
    const response = await newSession(agent, cwd);
    expect(response.workspaceTrust).toEqual({
      status: "untrusted",
      details: {
        cwd,
        ignoredPaths: [join(cwd, ".claude", "settings.json"), join(cwd, "CLAUDE.md")],
        availableDecisions: ["trust_cwd", "trust_session", "decline"],
      },
    });
    expect(JSON.stringify(response)).not.toContain("null");
  });

  it("offers trust_repo with the repository's root when the folder is inside a repository", async () => {
    const { agent } = await setup();
    const root = clonedFolder();
    mkdirSync(join(root, ".git"));
    const cwd = join(root, "packages", "app");
    mkdirSync(cwd, { recursive: true });
    const response = await newSession(agent, cwd);
    expect(response.workspaceTrust).toEqual({
      status: "untrusted",
      details: {
        cwd,
        repoRoot: root,
        ignoredPaths: [join(root, "CLAUDE.md")],
        availableDecisions: ["trust_repo", "trust_cwd", "trust_session", "decline"],
      },
    });
  });

  it("trust/apply with the RFD's trust_cwd example answers {workspaceTrust: {status: trusted}} and records the folder in Claude Code's own store", async () => {
    const { agent, env } = await setup();
    const cwd = clonedFolder();
    const { sessionId } = await newSession(agent, cwd);
    const answer = await request(agent, "trust/apply", { cwd, decision: "trust_cwd", sessionId });
    expect(answer).toEqual({ workspaceTrust: { status: "trusted" } });
    expect(trustRecords(env.CLAUDE_CONFIG_DIR!)[cwd]).toEqual({ hasTrustDialogAccepted: true });
    // A session opened there now is trusted, with no details.
    expect((await newSession(agent, cwd)).workspaceTrust).toEqual({ status: "trusted" });
  });

  it("a folder with no trust-sensitive file has nothing to protect: status only, and Claude Code starts as always", async () => {
    const { agent, claude } = await setup();
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "acp-trust-empty-")));
    const response = await newSession(agent, cwd);
    expect(response.workspaceTrust).toEqual({ status: "untrusted" });
    await expect.poll(() => claude.started.length).toBe(1);
    expect(claude.started[0]!.options.settingSources).toBeUndefined();
    expect(claude.started[0]!.options.env[IGNORE_PERSISTED_TRUST]).toBeUndefined();
  });
});

describe("workspace trust: trust/apply is validated before anything is applied", () => {
  it.each([
    ["no cwd", { decision: "trust_cwd" }],
    ["an empty cwd", { cwd: "", decision: "trust_cwd" }],
    ["a relative cwd", { cwd: "relative/dir", decision: "trust_cwd" }],
    ["a cwd that is not a string", { cwd: 7, decision: "trust_cwd" }],
    ["a null cwd", { cwd: null, decision: "trust_cwd" }],
    ["no decision", { cwd: "/tmp" }],
    ["an unknown decision", { cwd: "/tmp", decision: "trust_everything" }],
    ["an empty sessionId", { cwd: "/tmp", decision: "trust_cwd", sessionId: "" }],
    ["a null sessionId", { cwd: "/tmp", decision: "trust_cwd", sessionId: null }],
    ["trust_session without a sessionId", { cwd: "/tmp", decision: "trust_session" }],
  ])("%s is -32602", async (_, params) => {
    const { agent } = await setup();
    expect((await rpcError(request(agent, "trust/apply", params))).code).toBe(-32602);
  });

  it("an unknown sessionId is session_not_found (-32002)", async () => {
    const { agent } = await setup();
    const cwd = clonedFolder();
    const error = await rpcError(
      request(agent, "trust/apply", { cwd, decision: "trust_cwd", sessionId: "no-such" }),
    );
    expect(error.code).toBe(-32002);
  });

  it("a decision the folder's trust does not offer is -32602, and nothing is recorded: trust_repo outside a repository, any decision for a trusted folder", async () => {
    const { agent, env } = await setup();
    const cwd = clonedFolder();
    const { sessionId } = await newSession(agent, cwd);
    const repo = await rpcError(request(agent, "trust/apply", { cwd, decision: "trust_repo" }));
    expect(repo.code).toBe(-32602);
    expect(() => readFileSync(join(env.CLAUDE_CONFIG_DIR!, ".claude.json"))).toThrow();
    await request(agent, "trust/apply", { cwd, decision: "trust_cwd", sessionId });
    const again = await rpcError(request(agent, "trust/apply", { cwd, decision: "decline" }));
    expect(again.code).toBe(-32602);
  });

  it("a session named for another folder is -32602", async () => {
    const { agent } = await setup();
    const { sessionId } = await newSession(agent, clonedFolder());
    const error = await rpcError(
      request(agent, "trust/apply", { cwd: clonedFolder(), decision: "trust_cwd", sessionId }),
    );
    expect(error.code).toBe(-32602);
  });
});

describe("workspace trust: what an untrusted folder's session starts Claude Code with", () => {
  it("only the user's setting sources and Claude Code's switch that no trust record counts; after trust_session for the session, the next prompt runs on a process with the project's sources", async () => {
    const { agent, claude } = await setup();
    const cwd = clonedFolder();
    const { sessionId } = await newSession(agent, cwd);
    await request(agent, "trust/apply", { cwd, decision: "decline", sessionId });
    await answerOn(agent, claude, 0, sessionId as string);
    expect(claude.started[0]!.options.settingSources).toEqual(["user"]);
    expect(claude.started[0]!.options.env[IGNORE_PERSISTED_TRUST]).toBe("1");

    const answer = await request(agent, "trust/apply", {
      cwd,
      decision: "trust_session",
      sessionId,
    });
    expect(answer).toEqual({ workspaceTrust: { status: "session" } });
    await answerOn(agent, claude, 1, sessionId as string);
    expect(claude.started[1]!.options.settingSources).toBeUndefined();
    expect(claude.started[1]!.options.env[IGNORE_PERSISTED_TRUST]).toBeUndefined();
    expect(claude.started[1]!.options.resume).toBe(sessionId);
  });

  it("the client's own setting sources are narrowed to the user's, never widened", async () => {
    const { agent, claude } = await setup();
    const cwd = clonedFolder();
    await request(agent, "session/new", {
      cwd,
      mcpServers: [],
      _meta: { claudeCode: { options: { settingSources: ["project", "local"] } } },
    });
    await expect.poll(() => claude.started.length).toBe(1);
    expect(claude.started[0]!.options.settingSources).toEqual([]);
  });

  it(`${"CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS"}=1 keeps the behaviour before workspace trust: every folder is trusted`, async () => {
    const { agent, claude } = await setup({ env: { CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS: "1" } });
    const response = await newSession(agent, clonedFolder());
    expect(response.workspaceTrust).toEqual({ status: "trusted" });
    await expect.poll(() => claude.started.length).toBe(1);
    expect(claude.started[0]!.options.env[IGNORE_PERSISTED_TRUST]).toBeUndefined();
  });
});

describe("workspace trust: the ask for clients that do not know the RFD", () => {
  const select =
    (kind: string): PermissionHandler =>
    (request) => ({
      outcome: {
        outcome: "selected",
        optionId: request.options.find((o) => o.kind === kind)!.optionId,
      },
    });

  it("before the first prompt: a permission request whose options state their effect, in the contract's order, naming the files", async () => {
    const asked: RequestPermissionRequest[] = [];
    const { agent, claude } = await setup({
      onPermission: (request, signal) => {
        asked.push(request);
        return select("allow_once")(request, signal);
      },
    });
    const cwd = clonedFolder();
    const { sessionId } = await newSession(agent, cwd);
    await answerOn(agent, claude, 1, sessionId as string);
    expect(asked).toHaveLength(1);
    const [ask] = asked;
    expect(ask!.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["trust-session", "allow_once"],
      ["trust-folder", "allow_always"],
      ["trust-decline", "reject_always"],
    ]);
    expect(ask!.options[1]!.name).toBe(
      "Trust this folder: load its settings, hooks and MCP servers, now and in later sessions",
    );
    expect(ask!.toolCall.title).toBe(`Trust the files in ${cwd}?`);
    const meta = ask!._meta?.permission as { title: string; description: string };
    expect(meta.title).toBe(ask!.toolCall.title);
    expect(meta.description).toContain(join(cwd, "CLAUDE.md"));
    expect(ask!.toolCall.locations).toEqual([
      { path: join(cwd, ".claude", "settings.json") },
      { path: join(cwd, "CLAUDE.md") },
    ]);
    // Allowed for the session: the prompt ran on a process with the project's sources.
    expect(claude.started[1]!.options.settingSources).toBeUndefined();
  });

  it("a rejecting client declines: no second ask in this agent process, and the prompt runs without the project's context", async () => {
    const { agent, claude, permissionRequests } = await setup({
      onPermission: select("reject_always"),
    });
    const cwd = clonedFolder();
    const first = await newSession(agent, cwd);
    await answerOn(agent, claude, 0, first.sessionId as string);
    const second = await newSession(agent, cwd);
    await answerOn(agent, claude, 1, second.sessionId as string);
    expect(permissionRequests).toHaveLength(1);
    expect(claude.started.map((q) => q.options.settingSources)).toEqual([["user"], ["user"]]);
  });

  it("cancelling counts as not now: the prompt runs without the context, and the next prompt asks again", async () => {
    const { agent, claude, permissionRequests } = await setup();
    const cwd = clonedFolder();
    const { sessionId } = await newSession(agent, cwd);
    await answerOn(agent, claude, 0, sessionId as string);
    expect(permissionRequests).toHaveLength(1);
    const again = agent.request(methods.agent.session.prompt, {
      sessionId: sessionId as string,
      prompt: [{ type: "text", text: "again" }],
    });
    await expect.poll(() => permissionRequests.length).toBe(2);
    const query = claude.started[0]!;
    await query.waitForSent(2);
    query.emit(...streamedText("m2", "ok"), result());
    await again;
    expect(claude.started).toHaveLength(1);
  });

  it("session/cancel during the ask stops it and ends the prompt cancelled", async () => {
    const { agent, permissionRequests } = await setup({
      onPermission: (_, signal) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } })),
        ),
    });
    const cwd = clonedFolder();
    const { sessionId } = await newSession(agent, cwd);
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId: sessionId as string,
      prompt: [{ type: "text", text: "hi" }],
    });
    await expect.poll(() => permissionRequests.length).toBe(1);
    await agent.notify(methods.agent.session.cancel, { sessionId: sessionId as string });
    expect(await prompt).toEqual({ stopReason: "cancelled" });
  });
});
