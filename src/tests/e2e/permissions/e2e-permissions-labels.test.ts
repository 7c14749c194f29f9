// End-to-end, durable labels say exactly what they do (design.md, "Labels"; the contract's
// "complete effect in the option label"): the built agent, the real Claude Code and the
// scripted API. Each test chooses the durable option and compares what its label said
// with what Claude Code then wrote or switched.
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { savedAllowRules, textTurn, toolTurn, writeFiles } from "../../support/audit/project.js";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await stopAllE2E();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
shareAgents({ sessions: true });

const DURABLE = { answer: "select", optionId: "allow-with-updates" } as const;

function durableLabel(request: RequestPermissionRequest | undefined): string | undefined {
  return request?.options.find((o) => o.optionId === "allow-with-updates")?.name;
}

/**
 * The contents of the saved Bash rules, unescaped (the settings file writes `(` and `)`
 * inside a rule as `\(` and `\)`).
 */
async function savedBashRules(cwd: string): Promise<string[]> {
  return (await savedAllowRules(cwd)).flatMap((rule) => {
    const content = /^Bash\((.*)\)$/.exec(rule)?.[1];
    return content === undefined ? [] : [content.replace(/\\([()])/g, "$1")];
  });
}

describe("a shell durable label names every rule it writes, however many", () => {
  it("five commands: the label names each saved prefix (never `similar commands`) and says where they are saved", async () => {
    const command =
      "npm test && make lint && cargo build --release && go vet ./... && yarn lint --fix";
    const e2e = await startE2E({
      scenario: [toolTurn("toolu_five", "Bash", { command }), textTurn("Done.")],
      permission: DURABLE,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Check everything.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [asked] = e2e.permissions.records;
    const label = durableLabel(asked?.request);
    const saved = await savedBashRules(e2e.cwd);
    expect(saved.length).toBeGreaterThan(1);
    expect(label).not.toContain("similar");
    for (const rule of saved) expect(label).toContain(rule.replace(/( \*|:\*)$/, ""));
    expect(label).toMatch(/ in this project$/);
    // As observed: two prefixes are whole parts of the command, three also take other
    // arguments (`cargo build *` for `cargo build --release`).
    expect(label).toBe(
      "Yes, and don't ask again for npm test and make lint commands and any cargo build, go vet, or yarn lint command (broader than this command) in this project",
    );
  });

  it("`npm run build && node -e …`: the saved `npm run *` covers every npm script, and the label says it is broader than the command", async () => {
    const command = "npm run build && node -e 'console.log(1)'";
    const e2e = await startE2E({
      scenario: [toolTurn("toolu_build", "Bash", { command }), textTurn("Built.")],
      permission: DURABLE,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Build it.")).toMatchObject({ stopReason: "end_turn" });

    const [asked] = e2e.permissions.records;
    const saved = await savedBashRules(e2e.cwd);
    expect(saved).toEqual(["npm run *", "node -e 'console.log(1)'"]);
    expect(durableLabel(asked?.request)).toBe(
      "Yes, and don't ask again for node -e 'console.log(1)' commands and any npm run command (broader than this command) in this project",
    );
  });
});

describe("a durable label says where its effect lives", () => {
  it("a rule saved to .claude/settings.local.json ends with `in this project`", async () => {
    const e2e = await startE2E({
      scenario: [
        toolTurn("toolu_fetch", "WebFetch", { url: "https://example.com/a", prompt: "Sum up." }),
        textTurn("Fetched."),
      ],
      permission: DURABLE,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Fetch it.")).toMatchObject({ stopReason: "end_turn" });

    const [asked] = e2e.permissions.records;
    expect(durableLabel(asked?.request)).toBe(
      "Yes, and don't ask again for example.com in this project",
    );
    expect(await savedAllowRules(e2e.cwd)).toContain("WebFetch(domain:example.com)");
  });
});

describe("a filesystem durable label states the whole bundle", () => {
  it("a Write outside the cwd: the label says all edits during the session, including in that directory; afterwards the mode is Accept edits and edits in the cwd and there run unasked", async () => {
    const outside = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-outside-")));
    cleanups.push(() => rm(outside, { recursive: true, force: true }));
    const e2e = await startE2E({ permission: DURABLE });
    const inCwd = join(e2e.cwd, "notes.txt");
    await writeFiles(e2e.cwd, { "notes.txt": "one\n" });
    e2e.api.setScenario([
      toolTurn("toolu_out_1", "Write", { file_path: join(outside, "a.txt"), content: "a\n" }),
      toolTurn("toolu_in", "Edit", { file_path: inCwd, old_string: "one", new_string: "two" }),
      toolTurn("toolu_out_2", "Write", { file_path: join(outside, "b.txt"), content: "b\n" }),
      textTurn("Wrote them."),
    ]);
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Write the files.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(durableLabel(asked?.request)).toBe(
      `Yes, allow all edits during this session, including in ${outside}/`,
    );
    // What the label said is what happened: the session accepts edits (the client is
    // told), in the project as in the added directory.
    expect(e2e.updates.of(sessionId, "current_mode_update").map((u) => u.currentModeId)).toEqual([
      "acceptEdits",
    ]);
    expect(await readFile(inCwd, "utf8")).toBe("two\n");
    expect(await readFile(join(outside, "b.txt"), "utf8")).toBe("b\n");
  });
});

describe("a shell permission title shows the whole command on one line", () => {
  it("runs of whitespace collapse, and a multi-line command says it has more lines; the full command is in the tool call's content", async () => {
    // Commands that need approval (a lone `echo` is read-only and runs unasked).
    const padded = `echo ok${" ".repeat(300)}&& touch tail.txt`;
    const multiline = "echo ok\ntouch second.txt\ntouch third.txt";
    const e2e = await startE2E({
      scenario: [
        toolTurn("toolu_padded", "Bash", { command: padded }),
        toolTurn("toolu_lines", "Bash", { command: multiline }),
        textTurn("Refused."),
      ],
      permission: { answer: "select", optionId: "reject" },
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Echo.")).toMatchObject({ stopReason: "end_turn" });

    const [first, second] = e2e.permissions.records.map((r) => r.request);
    const heading = (request: RequestPermissionRequest | undefined) =>
      (request?._meta as { permission?: { title?: string } } | undefined)?.permission?.title;
    expect(first?.toolCall.title).toBe("echo ok && touch tail.txt");
    expect(heading(first)).toBe("echo ok && touch tail.txt");
    expect(second?.toolCall.title).toBe("echo ok … (+2 lines)");
    expect(heading(second)).toBe("echo ok … (+2 lines)");
    expect(second?.toolCall.content).toContainEqual({
      type: "content",
      content: { type: "text", text: `\`\`\`sh\n${multiline}\n\`\`\`` },
    });
  });
});
