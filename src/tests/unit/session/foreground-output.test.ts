// A foreground command's output while it runs (session/background/terminals.ts): once Claude Code
// reports the command as a task, its output file is followed; whichever of the task's end
// and the result comes first, the output is sent once, and the exit only with the result.
import { appendFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { SessionClient } from "../../../acp/session-client.js";
import { taskOutputFile } from "../../../claude/task-output.js";
import { SessionTerminals } from "../../../session/background/terminals.js";
import type { TrackedToolCall } from "../../../session/stream/tool-calls.js";

const CALL: TrackedToolCall = {
  id: "toolu_fg",
  name: "Bash",
  input: { command: "make" },
  parentToolUseId: null,
  status: "in_progress",
};
const UPDATE = { toolCallId: CALL.id, status: "completed" as const };
const RESULT = {
  type: "tool_result" as const,
  tool_use_id: CALL.id,
  content: "one\ntwo\nthree",
  is_error: false,
};

async function setup(options: { file?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "foreground-output-"));
  const file = join(dir, "task1.output");
  if (options.file !== false) await writeFile(file, "one\n");
  const sent: ToolCallUpdate[] = [];
  const client = {
    capabilities: { _meta: { terminal_output: true } },
    forThread: () => client,
    updateToolCall: (update: ToolCallUpdate) => {
      sent.push(update);
      return Promise.resolve();
    },
  } as unknown as SessionClient;
  let tracked: TrackedToolCall | undefined = CALL;
  const terminals = new SessionTerminals(
    {
      client,
      send: (update) => update(),
      process: () => undefined,
      backgroundTask: () => undefined,
      call: (id) => (id === CALL.id ? tracked : undefined),
      taskOutputFile: () => Promise.resolve(options.file === false ? undefined : file),
    },
    dir,
    5,
  );
  const meta = (key: string) =>
    sent.flatMap((u) => {
      const value = (u._meta as Record<string, { data?: string }> | undefined)?.[key];
      return value ? [value] : [];
    });
  return {
    terminals,
    file,
    sent,
    outputs: () => meta("terminal_output").map((o) => o.data),
    exits: () => meta("terminal_exit"),
    forget: () => (tracked = undefined),
  };
}

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a foreground command reported as a task", () => {
  it("streams its file while it runs; the result sends the rest and the exit, not the output again", async () => {
    const t = await setup();
    await t.terminals.foregroundStarted({ task_id: "task1", tool_use_id: CALL.id });
    await settle();
    expect(t.outputs()).toEqual(["one\n"]);
    await appendFile(t.file, "two\n");
    await settle();
    await appendFile(t.file, "three\n");
    await t.terminals.result(CALL, RESULT, undefined, UPDATE);
    expect(t.outputs().join("")).toBe("one\ntwo\nthree\n");
    expect(t.exits()).toEqual([{ terminal_id: CALL.id, exit_code: 0, signal: null }]);
    expect(t.sent.at(-1)).toMatchObject({ status: "completed" });
  });

  it("the output its file no longer holds (Claude Code removes it as the command ends) comes from the result, once", async () => {
    const t = await setup();
    await t.terminals.foregroundStarted({ task_id: "task1", tool_use_id: CALL.id });
    await settle();
    expect(t.outputs()).toEqual(["one\n"]);
    await rm(t.file);
    await t.terminals.result(CALL, RESULT, undefined, UPDATE);
    expect(t.outputs()).toEqual(["one\n", "two\nthree\n"]);
    expect(t.exits()).toHaveLength(1);
  });

  it("its task's end before the result stops the reading and sends no exit; the result brings it", async () => {
    const t = await setup();
    await t.terminals.foregroundStarted({ task_id: "task1", tool_use_id: CALL.id });
    await settle();
    await appendFile(t.file, "two\nthree\n");
    await t.terminals.taskEnded({ task_id: "task1", status: "completed", summary: "make" });
    expect(t.exits()).toEqual([]);
    await t.terminals.result(CALL, RESULT, undefined, UPDATE);
    expect(t.outputs().join("")).toBe("one\ntwo\nthree\n");
    expect(t.exits()).toHaveLength(1);
  });

  it("with no file found, or a task that ended while it was looked for, the result alone shows the output", async () => {
    for (const early of [false, true]) {
      const t = await setup({ file: early });
      if (early) {
        await t.terminals.taskEnded({ task_id: "task1", status: "completed", summary: "make" });
      }
      await t.terminals.foregroundStarted({ task_id: "task1", tool_use_id: CALL.id });
      await settle();
      await t.terminals.result(CALL, RESULT, undefined, UPDATE);
      expect(t.outputs()).toEqual(["one\ntwo\nthree\n"]);
      expect(t.exits()).toHaveLength(1);
    }
  });

  it("a task whose call is no longer tracked is not followed", async () => {
    const t = await setup();
    t.forget();
    await t.terminals.foregroundStarted({ task_id: "task1", tool_use_id: CALL.id });
    await settle();
    expect(t.sent).toEqual([]);
  });
});

describe("the output file of a task (claude/task-output.ts)", () => {
  const SESSION = "2cf02797-4745-427a-98d6-760d870cb116";

  it("is found under Claude Code's temporary directory, whatever its project directory is called; only as a regular file, and only for ids that can be Claude Code's", async () => {
    const tmp = await mkdtemp(join(tmpdir(), "task-output-"));
    const tasks = join(tmp, `claude-${process.getuid!()}`, "-some-project", SESSION, "tasks");
    await mkdir(tasks, { recursive: true });
    await writeFile(join(tasks, "b9ngg2lmi.output"), "x");
    await symlink("/etc/hostname", join(tasks, "linked.output"));
    expect(await taskOutputFile({ TMPDIR: tmp }, SESSION, "b9ngg2lmi")).toBe(
      join(tasks, "b9ngg2lmi.output"),
    );
    expect(
      await taskOutputFile({ CLAUDE_CODE_TMPDIR: tmp, TMPDIR: "/nowhere" }, SESSION, "b9ngg2lmi"),
    ).toBe(join(tasks, "b9ngg2lmi.output"));
    expect(await taskOutputFile({ TMPDIR: tmp }, SESSION, "linked")).toBeUndefined();
    expect(await taskOutputFile({ TMPDIR: tmp }, SESSION, "missing")).toBeUndefined();
    expect(await taskOutputFile({ TMPDIR: tmp }, SESSION, "../../b9ngg2lmi")).toBeUndefined();
    expect(await taskOutputFile({ TMPDIR: tmp }, "../x", "b9ngg2lmi")).toBeUndefined();
  });
});
