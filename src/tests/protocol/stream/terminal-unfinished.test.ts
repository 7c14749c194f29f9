// In process: a command shown as a terminal that the turn leaves without a result ends its
// terminal (conventions: every terminal gets its exit), instead of turning into plain text.
import { describe, expect, it } from "vitest";
import { UNFINISHED } from "../../../session/turns/unfinished.js";
import { result, toolResult, toolUse } from "../../support/fake-claude.js";
import { fakeSession } from "../../support/fake-session.js";

function updatesOf(updates: { update: unknown }[], toolCallId: string) {
  return updates
    .map(({ update }) => update as Record<string, unknown>)
    .filter((update) => update.toolCallId === toolCallId);
}

describe("a terminal the turn leaves unfinished", () => {
  it("keeps the terminal as content, says why as its output and ends it with an unknown exit", async () => {
    const session = await fakeSession({
      clientCapabilities: { terminal: true, _meta: { terminal_output: true } },
    });
    const response = await session.prompt(
      "run it",
      toolUse("toolu_sleep", "Bash", { command: "sleep 100" }),
      result(),
    );
    expect(response.stopReason).toBe("end_turn");
    const updates = updatesOf(session.updates, "toolu_sleep");
    const output = updates.find((update) => hasMeta(update, "terminal_output"));
    expect(meta(output, "terminal_output")).toEqual({
      terminal_id: "toolu_sleep",
      data: `${UNFINISHED.notRun}\n`,
    });
    const last = updates.at(-1)!;
    expect(last.status).toBe("failed");
    expect(last.content).toEqual([{ type: "terminal", terminalId: "toolu_sleep" }]);
    expect(meta(last, "terminal_exit")).toEqual({
      terminal_id: "toolu_sleep",
      exit_code: null,
      signal: null,
    });
  });

  it("a client without terminals still gets the reason as the call's text", async () => {
    const session = await fakeSession();
    await session.prompt(
      "run it",
      toolUse("toolu_sleep", "Bash", { command: "sleep 100" }),
      result(),
    );
    const last = updatesOf(session.updates, "toolu_sleep").at(-1)!;
    expect(last.status).toBe("failed");
    expect(last.content).toEqual([
      { type: "content", content: { type: "text", text: UNFINISHED.notRun } },
    ]);
    expect(hasMeta(last, "terminal_exit")).toBe(false);
  });
});

describe("a tool call's end is final", () => {
  it("a result that comes after the call was closed unfinished sends nothing: no second final status, no second terminal_exit", async () => {
    const session = await fakeSession({
      clientCapabilities: { terminal: true, _meta: { terminal_output: true } },
    });
    await session.prompt(
      "run it",
      toolUse("toolu_sleep", "Bash", { command: "sleep 100" }),
      result(),
    );
    const closed = updatesOf(session.updates, "toolu_sleep").length;

    session.query.emit(
      toolResult("toolu_sleep", "late", { structured: { stdout: "late", stderr: "" } }),
      toolUse("toolu_next", "Bash", { command: "true" }),
    );
    await expect.poll(() => updatesOf(session.updates, "toolu_next").length).toBeGreaterThan(0);
    const updates = updatesOf(session.updates, "toolu_sleep");
    expect(updates).toHaveLength(closed);
    expect(updates.filter((update) => hasMeta(update, "terminal_exit"))).toHaveLength(1);
    expect(updates.at(-1)!.status).toBe("failed");
  });

  it("without terminals, a late result does not turn the failed call completed", async () => {
    const session = await fakeSession();
    await session.prompt("read it", toolUse("toolu_read", "Read", { file_path: "/x" }), result());
    session.query.emit(
      toolResult("toolu_read", "late text"),
      toolUse("toolu_next", "Bash", { command: "true" }),
    );
    await expect.poll(() => updatesOf(session.updates, "toolu_next").length).toBeGreaterThan(0);
    const statuses = updatesOf(session.updates, "toolu_read").map((update) => update.status);
    expect(statuses.filter(Boolean)).toEqual(["pending", "failed"]);
    expect(JSON.stringify(updatesOf(session.updates, "toolu_read"))).not.toContain("late text");
  });
});

function hasMeta(update: Record<string, unknown> | undefined, key: string): boolean {
  return meta(update, key) !== undefined;
}

function meta(update: Record<string, unknown> | undefined, key: string): unknown {
  return (update?._meta as Record<string, unknown> | undefined)?.[key];
}
