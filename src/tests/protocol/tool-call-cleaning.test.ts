// What a client is shown of a tool call (rawInput, rawOutput, locations, diff paths) holds no
// escape sequences or control characters, whatever Claude's input or a file held; what Claude
// Code runs is the input as Claude wrote it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionNotification, type SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { cleanJson } from "../../util/text.js";
import { controlStrings, HOSTILE_TEXT } from "../support/control-characters.js";
import { fakeClaude, result, toolResult, toolUse } from "../support/fake-claude.js";
import { connectInProcess } from "../support/in-process.js";

const cwd = mkdtempSync(join(tmpdir(), "tool-call-cleaning-"));
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const { CSI, OSC_TITLE, OSC_LINK, C1_CSI, RLO } = HOSTILE_TEXT;
const HOSTILE: Array<[string, string]> = [
  ["CSI", CSI],
  ["an OSC title", OSC_TITLE],
  ["an OSC hyperlink", OSC_LINK],
  ["C1 CSI", C1_CSI],
  ["BEL", "\u0007"],
  ["backspace", "\b"],
  ["U+202E", RLO],
  ["U+2066", "\u2066"],
];

describe("cleanJson: a JSON value as a client is shown it", () => {
  it.each(HOSTILE)("removes %s from string values and keys, at any depth", (_name, hostile) => {
    const value = {
      [`a${hostile}b`]: `x${hostile}y`,
      list: [1, true, null, `in${hostile}list`, { deep: [[`z${hostile}`]] }],
    };
    expect(cleanJson(value)).toEqual({
      ab: "xy",
      list: [1, true, null, "inlist", { deep: [["z"]] }],
    });
  });

  it("keeps numbers, booleans, null, newlines and tabs, and returns a clean value as it is", () => {
    const value = { n: 1.5, b: false, z: null, text: "two\nlines\tand a tab", list: [0, -2] };
    expect(cleanJson(value)).toBe(value);
    expect(cleanJson("plain")).toBe("plain");
    expect(cleanJson(undefined)).toBeUndefined();
  });

  it("never changes the value it was given", () => {
    const value = { command: `echo ${OSC_TITLE}hi`, nested: { path: `/tmp/${RLO}x` } };
    const copy = structuredClone(value);
    cleanJson(value);
    expect(value).toEqual(copy);
  });

  it("a key that cleans to __proto__ stays a plain key, the prototype untouched", () => {
    const value = JSON.parse(
      `{"__pro\\u202eto__":{"polluted":true},"__proto__":{"x":1}}`,
    ) as object;
    const cleaned = cleanJson(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect(Object.keys(cleaned)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("cleans a value nested 3,000 levels deep", () => {
    let value: unknown = `bottom${CSI}`;
    for (let i = 0; i < 3_000; i++) value = [value];
    let cleaned = cleanJson(value);
    for (let i = 0; i < 3_000; i++) cleaned = (cleaned as unknown[])[0];
    expect(cleaned).toBe("bottom");
  });
});

async function setup() {
  const claude = fakeClaude();
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow-once" } }),
  });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const query = claude.started.at(-1)!;
  const prompt = harness.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "x" }],
  });
  await query.waitForSent(1);
  return { ...harness, query, prompt };
}

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

/** The tool calls and their updates the client was sent, in order. */
const toolUpdates = (updates: SessionNotification[]): ToolUpdate[] =>
  updates
    .map((n) => n.update)
    .filter(
      (u): u is ToolUpdate =>
        u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update",
    );

describe("what a client is shown of a tool call", () => {
  it("rawInput and rawOutput hold no control characters, keys and values, nested", async () => {
    const { query, updates, prompt } = await setup();
    const input = {
      [`server${CSI}`]: `name${OSC_TITLE}`,
      args: [{ [`k${RLO}`]: `v${C1_CSI}` }, 3, { text: `a${OSC_LINK}b\u0007` }],
    };
    query.emit(
      toolUse("toolu_m", "mcp__files__look", input),
      toolResult("toolu_m", `out${CSI}`, {
        structured: { [`r${RLO}`]: [`file text${OSC_TITLE}`, { n: 1 }] },
      }),
      result(),
    );
    await prompt;

    const shown = toolUpdates(updates);
    expect(shown.map((u) => u.sessionUpdate)).toEqual(["tool_call", "tool_call_update"]);
    expect(controlStrings(shown)).toEqual([]);
    expect(shown[0]).toMatchObject({
      rawInput: { server: "name", args: [{ k: "v" }, 3, { text: "ab" }] },
    });
    expect(shown[1]).toMatchObject({ rawOutput: { r: ["file text", { n: 1 }] } });
  });

  it("a location whose path holds control characters is dropped (a cleaned path would name another file); a clean one stays", async () => {
    const { query, updates, prompt } = await setup();
    const hostile = join(cwd, `notes${OSC_TITLE}.txt`);
    const clean = join(cwd, "notes.txt");
    query.emit(
      toolUse("toolu_r1", "Read", { file_path: hostile }),
      toolUse("toolu_r2", "Read", { file_path: clean }),
      toolUse("toolu_r3", "Read", { file_path: join(cwd, `a${RLO}b.txt`) }),
      toolUse("toolu_r4", "Read", { file_path: join(cwd, "two\nlines.txt") }),
      result(),
    );
    await prompt;

    const calls = toolUpdates(updates).filter((u) => u.sessionUpdate === "tool_call");
    const locations = Object.fromEntries(calls.map((u) => [u.toolCallId, u.locations]));
    expect(locations).toEqual({
      toolu_r1: [],
      toolu_r2: [{ path: clean, line: 1 }],
      toolu_r3: [],
      toolu_r4: [],
    });
    expect(controlStrings(calls)).toEqual([]);
  });

  it("an edit of a file whose path holds control characters shows its diff under a cleaned path, and no location", async () => {
    const { query, updates, prompt } = await setup();
    const path = join(cwd, `src${RLO}/evil${CSI}.ts`);
    query.emit(
      toolUse("toolu_e", "Edit", { file_path: path, old_string: "a", new_string: `b${OSC_TITLE}` }),
      toolResult("toolu_e", "edited", {
        structured: {
          filePath: path,
          oldString: "a",
          newString: `b${OSC_TITLE}`,
          originalFile: "a\n",
          structuredPatch: [
            { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-a", `+b${OSC_TITLE}`] },
          ],
        },
      }),
      result(),
    );
    await prompt;

    const shown = toolUpdates(updates);
    expect(controlStrings(shown)).toEqual([]);
    const diffs = shown.flatMap((u) => u.content ?? []);
    expect(diffs).toContainEqual(
      expect.objectContaining({ type: "diff", path: join(cwd, "src/evil.ts") }),
    );
    for (const update of shown) expect(update.locations ?? []).toEqual([]);
  });

  it("a permission ask shows the cleaned input, and an allow runs the input exactly as Claude wrote it", async () => {
    const { query, permissionRequests } = await setup();
    const input = { command: `printf '${OSC_TITLE}${RLO}'`, description: `d${CSI}` };
    const decision = await query.canUseTool("Bash", input, { toolUseID: "toolu_p" });

    expect(permissionRequests).toHaveLength(1);
    expect(controlStrings(permissionRequests)).toEqual([]);
    expect(permissionRequests[0]!.toolCall.rawInput).toEqual({
      command: "printf ''",
      description: "d",
    });
    expect(decision).toMatchObject({ behavior: "allow", updatedInput: input });
    expect((decision as { updatedInput: unknown }).updatedInput).toEqual({
      command: `printf '${OSC_TITLE}${RLO}'`,
      description: `d${CSI}`,
    });
  });
});
