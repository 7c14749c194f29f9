// End-to-end, the permission contract's durable choices (permission-extension.md,
// "Durable SDK suggestions"): the built agent, the real Claude Code and the scripted API.
// Choosing `allow-with-updates` must have the effect its label states, for real.
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await stopAllE2E();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
shareAgents({ sessions: true });

/** A directory outside the session's cwd (and its HOME), removed after the test. */
async function outsideDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-outside-")));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The tool result the model got for `toolUseId` (from the first request that carries it). */
function resultFor(e2e: E2E, toolUseId: string) {
  for (const request of e2e.api.mainRequests()) {
    const found = toolResults(request).find((r) => r.tool_use_id === toolUseId);
    if (found) return found;
  }
  return undefined;
}

const DURABLE = { answer: "select", optionId: "allow-with-updates" } as const;

describe("allow-with-updates", () => {
  it("for npm test writes Bash(npm test *) to .claude/settings.local.json, runs it, and the next npm test in the session is not asked", async () => {
    const e2e = await startE2E({
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

    expect(await e2e.prompt(sessionId, "Run the tests.")).toMatchObject({ stopReason: "end_turn" });

    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(asked?.request.toolCall.toolCallId).toBe("toolu_npm_1");
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: "Yes, and don't ask again for npm test commands in this project",
      kind: "allow_always",
    });
    const allow = await savedAllowRules(e2e.cwd);
    expect(allow.filter((rule) => /^Bash\(npm test( \*|:\*)\)$/.test(rule))).toHaveLength(1);
    expect(await npmTestRuns(e2e.cwd)).toBe(1);
    expect(resultFor(e2e, "toolu_npm_1")?.is_error).toBe(false);

    // Later in the same session: the rule answers, nobody is asked, and it runs.
    expect(await e2e.prompt(sessionId, "Run them again.")).toMatchObject({
      stopReason: "end_turn",
    });
    expect(e2e.permissions.records).toHaveLength(1);
    expect(await npmTestRuns(e2e.cwd)).toBe(2);
    expect(resultFor(e2e, "toolu_npm_2")?.is_error).toBe(false);
  });

  it("for a Read outside the cwd grants reading that directory for the session: the next Read there is not asked, and nothing is saved", async () => {
    const outside = await outsideDir();
    await writeFiles(outside, { "first.txt": "first secret\n", "second.txt": "second secret\n" });
    const e2e = await startE2E({
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

    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(asked?.request.toolCall.toolCallId).toBe("toolu_read_1");
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: `Yes, allow reading from ${outside}/ during this session`,
      kind: "allow_always",
    });
    expect(resultFor(e2e, "toolu_read_1")?.text).toContain("first secret");
    expect(resultFor(e2e, "toolu_read_2")?.text).toContain("second secret");
    // A session grant: no rule lands in the project's settings.
    expect(JSON.stringify((await localSettings(e2e.cwd)) ?? {})).not.toContain("Read(");
  });

  it("for WebFetch writes WebFetch(domain:<host>) to .claude/settings.local.json, and the next fetch from that host is not asked", async () => {
    const e2e = await startE2E({
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

    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: "Yes, and don't ask again for example.com in this project",
      kind: "allow_always",
    });
    expect(await savedAllowRules(e2e.cwd)).toContain("WebFetch(domain:example.com)");
    // Both fetches were attempted (there is no network here, so they fail after the check).
    expect(resultFor(e2e, "toolu_fetch_2")).toBeDefined();
  });

  it("for an edit of .claude/settings.json lets Claude edit its own settings for the rest of the session", async () => {
    const e2e = await startE2E({ permission: DURABLE });
    const settings = join(e2e.cwd, ".claude", "settings.json");
    await writeFiles(e2e.cwd, { ".claude/settings.json": '{\n  "env": {}\n}\n' });
    const edit = (id: string, from: string, to: string) =>
      toolTurn(id, "Edit", { file_path: settings, old_string: from, new_string: to });
    e2e.api.setScenario([
      toolTurn("toolu_read", "Read", { file_path: settings }),
      edit("toolu_edit_1", '"env": {}', '"env": { "A": "1" }'),
      edit("toolu_edit_2", '"A": "1"', '"A": "2"'),
      textTurn("Edited twice."),
    ]);
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Edit the settings.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(asked?.request.toolCall.toolCallId).toBe("toolu_edit_1");
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: "Yes, and allow Claude to edit its own settings for this session",
      kind: "allow_always",
    });
    expect(resultFor(e2e, "toolu_edit_2")?.is_error).toBe(false);
    expect(await readFile(settings, "utf8")).toContain('"A": "2"');
    // A session grant: no rule lands in the project's settings.
    expect(await localSettings(e2e.cwd)).toBeUndefined();
  });

  it("for a Write in the cwd accepts edits for the rest of the session: the next edit is not asked", async () => {
    const e2e = await startE2E({ permission: DURABLE });
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

    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(asked?.request.options).toContainEqual({
      optionId: "allow-with-updates",
      name: "Yes, allow all edits during this session",
      kind: "allow_always",
    });
    expect(resultFor(e2e, "toolu_edit")?.is_error).toBe(false);
    expect(await readFile(file, "utf8")).toBe("two\n");
    // The session's mode is now Accept edits, and the client is told.
    expect(e2e.updates.of(sessionId, "current_mode_update").map((u) => u.currentModeId)).toEqual([
      "acceptEdits",
    ]);
  });
});
