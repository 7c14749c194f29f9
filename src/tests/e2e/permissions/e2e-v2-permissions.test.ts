// End-to-end on the ACP v2 draft: a v2 client over stdio, the built agent, the real Claude
// Code and the scripted API. The permission scenarios of e2e-permissions-*.test.ts, as a v2
// client sees them: the same option ids, kinds and labels, the prompt copy both in v2's
// title/description and in `_meta.permission`, the same real effects (a durable rule in
// .claude/settings.local.json, the next identical call not asked, a refusal that runs
// nothing); and the version pin.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { USER_REJECTED } from "../../../permissions/messages.js";
import { toolResults } from "../../../scripted-api/index.js";
import {
  localSettings,
  npmTestRuns,
  PACKAGE_JSON,
  savedAllowRules,
  textTurn,
  toolTurn,
  writeFiles,
} from "../../support/audit/project.js";
import { AGENT_ENTRY, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { startV2E2E, stopAllV2E2E, type V2E2E } from "../../support/e2e/v2.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await stopAllV2E2E();
  await stopAllE2E();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const DURABLE = { answer: "select", optionId: "allow-with-updates" } as const;

function resultFor(e2e: V2E2E, toolUseId: string) {
  for (const request of e2e.api.mainRequests()) {
    const found = toolResults(request).find((r) => r.tool_use_id === toolUseId);
    if (found) return found;
  }
  return undefined;
}

/** The foreground states the session reported, in order. */
function states(e2e: V2E2E, sessionId: string): string[] {
  return e2e
    .updates(sessionId)
    .flatMap((u) =>
      u.sessionUpdate === "state_update"
        ? [[u.state, "stopReason" in u ? u.stopReason : undefined].filter(Boolean).join(" ")]
        : [],
    );
}

describe("permissions for a v2 client", () => {
  it("allow-with-updates for npm test: v2's title and tool_call subject, the durable option as on v1, Bash(npm test *) written, the next npm test not asked", async () => {
    const e2e = await startV2E2E({
      scenario: [
        toolTurn("toolu_npm_1", "Bash", { command: "npm test" }),
        textTurn("Tests ran."),
        toolTurn("toolu_npm_2", "Bash", { command: "npm test" }),
        textTurn("Ran them again."),
      ],
      permission: DURABLE,
    });
    await writeFiles(e2e.cwd, { "package.json": PACKAGE_JSON });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Run the tests.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [asked, ...others] = e2e.permissions;
    expect(others).toEqual([]);
    expect(asked?.request).toMatchObject({
      sessionId,
      title: "npm test",
      subject: { type: "tool_call", toolCall: { toolCallId: "toolu_npm_1", status: "pending" } },
      _meta: { permission: { version: 1, title: "npm test" } },
    });
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: "Yes, and don't ask again for npm test commands in this project",
      kind: "allow_always",
    });
    expect(asked?.request.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["allow-once", "allow_once"],
      ["allow-with-updates", "allow_always"],
      ["reject", "reject_once"],
    ]);
    const allow = await savedAllowRules(e2e.cwd);
    expect(allow.filter((rule) => /^Bash\(npm test( \*|:\*)\)$/.test(rule))).toHaveLength(1);
    expect(await npmTestRuns(e2e.cwd)).toBe(1);
    expect(resultFor(e2e, "toolu_npm_1")?.is_error).toBe(false);
    expect(states(e2e, sessionId)).toEqual([
      "running",
      "requires_action",
      "running",
      "idle end_turn",
    ]);

    // Later in the same session: the rule answers, nobody is asked, and it runs.
    expect(await e2e.prompt(sessionId, "Run them again.")).toMatchObject({
      stopReason: "end_turn",
    });
    expect(e2e.permissions).toHaveLength(1);
    expect(await npmTestRuns(e2e.cwd)).toBe(2);
    expect(resultFor(e2e, "toolu_npm_2")?.is_error).toBe(false);
  });

  it("reject: npm test does not run, the model is told it was refused, nothing is saved", async () => {
    const e2e = await startV2E2E({
      scenario: [toolTurn("toolu_npm", "Bash", { command: "npm test" }), textTurn("Understood.")],
      permission: { answer: "select", optionId: "reject" },
    });
    await writeFiles(e2e.cwd, { "package.json": PACKAGE_JSON });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Run the tests.")).toMatchObject({
      stopReason: "end_turn",
    });

    expect(e2e.permissions).toHaveLength(1);
    expect(await npmTestRuns(e2e.cwd)).toBe(0);
    expect(resultFor(e2e, "toolu_npm")).toMatchObject({ is_error: true, text: USER_REJECTED });
    expect(await localSettings(e2e.cwd)).toBeUndefined();
  });

  it("a Read outside the cwd: the CLI's reason is the v2 description and _meta.permission's; its durable option grants the directory for the session only", async () => {
    const outside = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-outside-")));
    cleanups.push(() => rm(outside, { recursive: true, force: true }));
    await writeFiles(outside, { "first.txt": "first secret\n", "second.txt": "second secret\n" });
    const e2e = await startV2E2E({
      scenario: [
        toolTurn("toolu_read_1", "Read", { file_path: join(outside, "first.txt") }),
        toolTurn("toolu_read_2", "Read", { file_path: join(outside, "second.txt") }),
        textTurn("Read both."),
      ],
      permission: DURABLE,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Read both files.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [asked, ...others] = e2e.permissions;
    expect(others).toEqual([]);
    const reason = "Reason: Path is outside allowed working directories";
    expect(asked?.request).toMatchObject({
      description: reason,
      subject: { type: "tool_call", toolCall: { toolCallId: "toolu_read_1" } },
      _meta: { permission: { version: 1, description: reason } },
    });
    expect(asked?.request.title).toBe(
      (asked?.request._meta as { permission: { title: string } }).permission.title,
    );
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: `Yes, allow reading from ${outside}/ during this session`,
      kind: "allow_always",
    });
    expect(resultFor(e2e, "toolu_read_1")?.text).toContain("first secret");
    expect(resultFor(e2e, "toolu_read_2")?.text).toContain("second secret");
    expect(JSON.stringify((await localSettings(e2e.cwd)) ?? {})).not.toContain("Read(");
  });

  it("WebFetch's durable option writes WebFetch(domain:example.com), and the next fetch from that host is not asked", async () => {
    const e2e = await startV2E2E({
      scenario: [
        toolTurn("toolu_fetch_1", "WebFetch", { url: "https://example.com/a", prompt: "Sum up." }),
        toolTurn("toolu_fetch_2", "WebFetch", { url: "https://example.com/b", prompt: "Sum up." }),
        textTurn("Fetched."),
      ],
      permission: DURABLE,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Fetch both pages.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [asked, ...others] = e2e.permissions;
    expect(others).toEqual([]);
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: "Yes, and don't ask again for example.com in this project",
      kind: "allow_always",
    });
    expect(await savedAllowRules(e2e.cwd)).toContain("WebFetch(domain:example.com)");
    expect(resultFor(e2e, "toolu_fetch_2")).toBeDefined();
  });

  it("a Write's durable option accepts edits for the session: the next edit is not asked, and the mode config option says so (v2 has no current_mode_update)", async () => {
    const e2e = await startV2E2E({ permission: DURABLE });
    const file = join(e2e.cwd, "notes.txt");
    e2e.api.setScenario([
      toolTurn("toolu_write", "Write", { file_path: file, content: "one\n" }),
      toolTurn("toolu_edit", "Edit", { file_path: file, old_string: "one", new_string: "two" }),
      textTurn("Wrote and edited."),
    ]);
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Write the notes.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [asked, ...others] = e2e.permissions;
    expect(others).toEqual([]);
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: "Yes, allow all edits during this session",
      kind: "allow_always",
    });
    expect(resultFor(e2e, "toolu_edit")?.is_error).toBe(false);
    expect(await readFile(file, "utf8")).toBe("two\n");
    const modes = e2e
      .updates(sessionId)
      .flatMap((u) =>
        u.sessionUpdate === "config_option_update"
          ? (u as v2.ConfigOptionUpdate).configOptions
          : [],
      )
      .filter((o) => o.configId === "mode")
      .map((o) => ("currentValue" in o ? o.currentValue : undefined));
    expect(modes.at(-1)).toBe("acceptEdits");
    expect(e2e.updates(sessionId).map((u) => u.sessionUpdate)).not.toContain("current_mode_update");
  });
});

describe("CLAUDE_AGENT_ACP_PROTOCOL", () => {
  it("2: a v1 initialize is refused with -32022 naming version 2, and a v2 one then succeeds on the same connection", async () => {
    const e2e = await startE2E({ env: { CLAUDE_AGENT_ACP_PROTOCOL: "2" }, initialize: false });
    const v1 = await e2e.rawRequest("initialize", { protocolVersion: 1, clientCapabilities: {} });
    expect(v1.error).toMatchObject({ code: -32022, data: { requested: 1, supported: [2] } });
    const v2 = await e2e.rawRequest("initialize", {
      protocolVersion: 2,
      info: { name: "raw", version: "0" },
    });
    expect(v2.result).toMatchObject({ protocolVersion: 2, info: { name: "claude-agent-acp" } });
  });

  it("1: a client asking for version 2 gets v1, as before v2", async () => {
    const e2e = await startE2E({ env: { CLAUDE_AGENT_ACP_PROTOCOL: "1" }, initialize: false });
    const answer = await e2e.rawRequest("initialize", {
      protocolVersion: 2,
      clientCapabilities: {},
    });
    expect(answer.result).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true },
    });
  });

  it("unset: a v2 client gets v2, a v1 client v1", async () => {
    const v2 = await startV2E2E({ initialize: false });
    expect(await v2.initialize()).toMatchObject({ protocolVersion: 2 });
    const v1 = await startE2E({ initialize: false });
    expect(await v1.initialize()).toMatchObject({ protocolVersion: 1 });
  });

  it("another value is a usage error: the agent says so on stderr and exits 2", async () => {
    const child = spawn(process.execPath, [AGENT_ENTRY], {
      env: { ...process.env, CLAUDE_AGENT_ACP_PROTOCOL: "3" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("CLAUDE_AGENT_ACP_PROTOCOL must be 1 or 2");
  });
});
