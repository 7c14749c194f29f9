// End-to-end on the real Claude Code: a folder the user has not trusted (a fresh clone) opens
// without its project context, and a trusted one as always. In a temp HOME whose Claude Code
// config trusts one folder and not another: the untrusted folder's SessionStart hook leaves
// no marker, its `permissions.allow: ["Bash"]` does not skip the ask, its `env.HTTP_PROXY`
// receives nothing, its CLAUDE.md is not in what the model is sent; the response names those
// files; after `trust/apply` (or the ask's allow, for a client without the RFD) each takes
// effect on the next prompt; a parent's trust covers its child.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";
import { startRecordingHost, type RecordingHost } from "../../support/recording-host.js";
import { trustRecords } from "../../support/trusted-folder.js";

let hosts: RecordingHost[] = [];
afterEach(async () => {
  await stopAllE2E();
  await Promise.all(hosts.map((host) => host.close()));
  hosts = [];
});

const INSTRUCTIONS = "TRUST-PROBE-INSTRUCTIONS-5b1e";
/** Without the agent's switch to trust every folder, as a user runs it. */
const AS_INSTALLED = { CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS: undefined };

/** A turn that runs a command showing the project's env, then one that ends the turn. */
const bashTurn = (): TurnSpec[] => [
  {
    content: [
      { type: "tool_use", name: "Bash", input: { command: 'echo "ran-$TRUST_PROBE" > ran.txt' } },
    ],
  },
  { content: [{ type: "text", text: "Done." }] },
];

interface Folder {
  settings: string;
  marker(name: string): string;
  /** The trust-sensitive files written, as the response must list them. */
  files: string[];
  /** Rewrites the settings with `env` (the proxy goes once its absence is proven). */
  writeSettings(env: Record<string, string>): void;
}

/** The session's folder as a clone would bring it: settings with a hook, an allow rule and env, an MCP server, CLAUDE.md and a command. */
function cloneInto(e2e: E2E, env: Record<string, string> = {}): Folder {
  const cwd = e2e.cwd;
  const markers = join(e2e.home, "markers");
  mkdirSync(markers, { recursive: true });
  mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
  const marker = (name: string) => join(markers, name);
  const settings = join(cwd, ".claude", "settings.json");
  const writeSettings = (vars: Record<string, string>) =>
    writeFileSync(
      settings,
      JSON.stringify({
        permissions: { allow: ["Bash"] },
        enableAllProjectMcpServers: true,
        env: { TRUST_PROBE: "from-project", ...vars },
        hooks: {
          SessionStart: [{ hooks: [{ type: "command", command: `touch '${marker("hook")}'` }] }],
        },
      }),
    );
  writeSettings(env);
  const server = join(e2e.home, "mcp-server.sh");
  writeFileSync(server, `#!/bin/sh\ntouch '${marker("mcp")}'\nexec sleep 5\n`);
  chmodSync(server, 0o755);
  writeFileSync(
    join(cwd, ".mcp.json"),
    JSON.stringify({ mcpServers: { probe: { command: server } } }),
  );
  writeFileSync(join(cwd, "CLAUDE.md"), `${INSTRUCTIONS}\n`);
  writeFileSync(
    join(cwd, ".claude", "commands", "trust-probe.md"),
    "---\ndescription: A project command\n---\nSay hi.\n",
  );
  return {
    settings,
    marker,
    files: [
      settings,
      join(cwd, ".mcp.json"),
      join(cwd, "CLAUDE.md"),
      join(cwd, ".claude", "commands"),
    ],
    writeSettings,
  };
}

/** Claude Code's config in the temp HOME, trusting `folders`. */
function trustInConfig(e2e: E2E, folders: string[]): void {
  const projects = Object.fromEntries(folders.map((f) => [f, { hasTrustDialogAccepted: true }]));
  writeFileSync(join(e2e.configDir, ".claude.json"), JSON.stringify({ projects }));
}

const sentToModel = (e2e: E2E): string =>
  JSON.stringify(e2e.api.requests.filter((r) => r.kind === "main").map((r) => r.body));

const commandNames = (e2e: E2E, sessionId: string): string[][] =>
  e2e.updates
    .of(sessionId, "available_commands_update")
    .map((u) => u.availableCommands.map((c) => c.name));

/** The RFD's field, which the SDK's response type does not know yet. */
const trustOf = (response: object): unknown =>
  (response as { workspaceTrust?: unknown }).workspaceTrust;

const isTrustAsk = (request: RequestPermissionRequest) =>
  request.options.some((o) => o.optionId === "trust-folder");

describe("workspace trust on the real Claude Code", () => {
  it("an untrusted folder's hook, allow rule, proxy, MCP server, CLAUDE.md and command wait; after trust/apply trust_cwd each takes effect on the next prompt", async () => {
    const e2e = await startE2E({ scenario: [...bashTurn(), ...bashTurn()], env: AS_INSTALLED });
    const proxy = await startRecordingHost();
    hosts.push(proxy);
    const folder = cloneInto(e2e, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: "" });
    const elsewhere = join(e2e.home, "trusted-project");
    mkdirSync(elsewhere);
    trustInConfig(e2e, [elsewhere]);

    const opened = await e2e.newSession();
    expect(trustOf(opened)).toEqual({
      status: "untrusted",
      details: {
        cwd: e2e.cwd,
        ignoredPaths: folder.files,
        availableDecisions: ["trust_cwd", "trust_session", "decline"],
      },
    });
    const { sessionId } = opened;
    const declined = await e2e.rawRequest("trust/apply", {
      cwd: e2e.cwd,
      decision: "decline",
      sessionId,
    });
    expect(declined.result).toMatchObject({ workspaceTrust: { status: "untrusted" } });

    expect((await e2e.prompt(sessionId, "go")).stopReason).toBe("end_turn");
    // The allow rule did not skip the ask (answered: cancelled), so the command never ran.
    expect(e2e.permissions.records.map((r) => r.request.toolCall.title)).toEqual([
      expect.stringContaining("echo"),
    ]);
    expect(existsSync(join(e2e.cwd, "ran.txt"))).toBe(false);
    expect(existsSync(folder.marker("hook"))).toBe(false);
    expect(existsSync(folder.marker("mcp"))).toBe(false);
    expect(proxy.calls).toEqual([]);
    expect(sentToModel(e2e)).not.toContain(INSTRUCTIONS);
    expect(commandNames(e2e, sessionId).flat()).not.toContain("trust-probe");

    // The proxy has been proven to receive nothing; with it the trusted turn would fail.
    folder.writeSettings({});
    const trusted = await e2e.rawRequest("trust/apply", {
      cwd: e2e.cwd,
      decision: "trust_cwd",
      sessionId,
    });
    expect(trusted.result).toEqual({ workspaceTrust: { status: "trusted" } });
    const records = trustRecords(e2e.configDir);
    expect(records[e2e.cwd]).toEqual({ hasTrustDialogAccepted: true });
    expect(records[elsewhere]).toEqual({ hasTrustDialogAccepted: true });

    expect((await e2e.prompt(sessionId, "go again")).stopReason).toBe("end_turn");
    expect(e2e.permissions.records).toHaveLength(1); // the allow rule holds now
    expect(readFileSync(join(e2e.cwd, "ran.txt"), "utf8").trim()).toBe("ran-from-project");
    expect(existsSync(folder.marker("hook"))).toBe(true);
    expect(existsSync(folder.marker("mcp"))).toBe(true);
    expect(sentToModel(e2e)).toContain(INSTRUCTIONS);
    await expect.poll(() => commandNames(e2e, sessionId).at(-1) ?? []).toContain("trust-probe");
  });

  it("a client without the RFD is asked before the first prompt; trusting the folder loads the context for that prompt and records it in Claude Code's store", async () => {
    const e2e = await startE2E({
      scenario: bashTurn(),
      env: AS_INSTALLED,
      permission: {
        answer: "select",
        optionId: (request) => (isTrustAsk(request) ? "trust-folder" : "allow-once"),
      },
    });
    const folder = cloneInto(e2e);
    const { sessionId } = await e2e.newSession();
    expect((await e2e.prompt(sessionId, "go")).stopReason).toBe("end_turn");
    const [ask, ...others] = e2e.permissions.records;
    expect(isTrustAsk(ask!.request)).toBe(true);
    expect(ask!.request.toolCall.locations).toEqual(folder.files.map((path) => ({ path })));
    expect(others).toEqual([]); // the project's allow rule skipped the command's ask
    expect(readFileSync(join(e2e.cwd, "ran.txt"), "utf8").trim()).toBe("ran-from-project");
    expect(existsSync(folder.marker("hook"))).toBe(true);
    expect(sentToModel(e2e)).toContain(INSTRUCTIONS);
    expect(trustRecords(e2e.configDir)[e2e.cwd]).toEqual({ hasTrustDialogAccepted: true });
    expect(trustOf(await e2e.newSession())).toEqual({ status: "trusted" });
  });

  it("trusting it only while the agent runs loads the settings, hooks and instructions, records nothing, and another session there is not asked; the project's allow rules still need Claude Code's own record", async () => {
    const e2e = await startE2E({
      scenario: bashTurn(),
      env: AS_INSTALLED,
      permission: {
        answer: "select",
        optionId: (request) => (isTrustAsk(request) ? "trust-session" : "allow-once"),
      },
    });
    const folder = cloneInto(e2e);
    const { sessionId } = await e2e.newSession();
    expect((await e2e.prompt(sessionId, "go")).stopReason).toBe("end_turn");
    expect(e2e.permissions.records.map((r) => isTrustAsk(r.request))).toEqual([true, false]);
    expect(readFileSync(join(e2e.cwd, "ran.txt"), "utf8").trim()).toBe("ran-from-project");
    expect(existsSync(folder.marker("hook"))).toBe(true);
    expect(sentToModel(e2e)).toContain(INSTRUCTIONS);
    // Claude Code writes its config itself; no trust record is in it.
    expect(trustRecords(e2e.configDir)[e2e.cwd]).toBeUndefined();
    expect(trustOf(await e2e.newSession())).toEqual({ status: "session" });
  });

  it("a headless client that rejects by policy runs without the project's context: no hook, no allow rule, no instructions", async () => {
    const reject = (request: RequestPermissionRequest) =>
      request.options.find((o) => o.kind === "reject_once" || o.kind === "reject_always")!.optionId;
    const e2e = await startE2E({
      scenario: bashTurn(),
      env: AS_INSTALLED,
      permission: { answer: "select", optionId: reject },
    });
    const folder = cloneInto(e2e);
    const { sessionId } = await e2e.newSession();
    expect((await e2e.prompt(sessionId, "go")).stopReason).toBe("end_turn");
    expect(e2e.permissions.records.map((r) => isTrustAsk(r.request))).toEqual([true, false]);
    expect(existsSync(join(e2e.cwd, "ran.txt"))).toBe(false);
    expect(existsSync(folder.marker("hook"))).toBe(false);
    expect(sentToModel(e2e)).not.toContain(INSTRUCTIONS);
  });

  it("a folder Claude Code trusts opens as always: status trusted, no ask, the hook, rule, env and instructions apply", async () => {
    const e2e = await startE2E({ scenario: bashTurn(), env: AS_INSTALLED });
    const folder = cloneInto(e2e);
    trustInConfig(e2e, [e2e.cwd]);
    const opened = await e2e.newSession();
    expect(trustOf(opened)).toEqual({ status: "trusted" });
    expect((await e2e.prompt(opened.sessionId, "go")).stopReason).toBe("end_turn");
    expect(e2e.permissions.records).toEqual([]);
    expect(readFileSync(join(e2e.cwd, "ran.txt"), "utf8").trim()).toBe("ran-from-project");
    expect(existsSync(folder.marker("hook"))).toBe(true);
    expect(sentToModel(e2e)).toContain(INSTRUCTIONS);
  });

  it("a parent's trust covers its child: status trusted, no trust ask, the hook and instructions apply", async () => {
    const e2e = await startE2E({
      scenario: bashTurn(),
      env: AS_INSTALLED,
      permission: { answer: "select", optionId: "allow-once" },
    });
    const folder = cloneInto(e2e);
    trustInConfig(e2e, [dirname(e2e.cwd)]);
    const opened = await e2e.newSession();
    expect(trustOf(opened)).toEqual({ status: "trusted" });
    expect((await e2e.prompt(opened.sessionId, "go")).stopReason).toBe("end_turn");
    expect(e2e.permissions.records.filter((r) => isTrustAsk(r.request))).toEqual([]);
    expect(readFileSync(join(e2e.cwd, "ran.txt"), "utf8").trim()).toBe("ran-from-project");
    expect(existsSync(folder.marker("hook"))).toBe(true);
    expect(sentToModel(e2e)).toContain(INSTRUCTIONS);
  });

  it("a rule the user chooses in an untrusted folder's session applies in that session: the next npm test is not asked", async () => {
    const npmTest = (): TurnSpec[] => [
      { content: [{ type: "tool_use", name: "Bash", input: { command: "npm test" } }] },
      { content: [{ type: "text", text: "Done." }] },
    ];
    const e2e = await startE2E({
      scenario: [...npmTest(), ...npmTest()],
      env: AS_INSTALLED,
      permission: { answer: "select", optionId: "allow-with-updates" },
    });
    cloneInto(e2e);
    const { sessionId } = await e2e.newSession();
    await e2e.rawRequest("trust/apply", { cwd: e2e.cwd, decision: "decline", sessionId });
    await e2e.prompt(sessionId, "test");
    await e2e.prompt(sessionId, "test again");
    expect(e2e.permissions.records).toHaveLength(1);
    const local = JSON.parse(
      readFileSync(join(e2e.cwd, ".claude", "settings.local.json"), "utf8"),
    ) as { permissions: { allow: string[] } };
    expect(local.permissions.allow).toEqual([expect.stringMatching(/^Bash\(npm test/)]);
  });
});
