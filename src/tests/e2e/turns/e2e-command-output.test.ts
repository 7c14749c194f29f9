// End-to-end: whatever a command printed reaches its terminal (`_meta.terminal_output`, Zed's
// handshake) exactly once, in order, before `terminal_exit`, whether it streamed from the
// task's output file, came only in the result, or both. Claude Code reports a command as a
// task after about three seconds and removes the task's output file as the command ends, so
// a command that prints at its end shows that part only through its result. Each command
// writes its real output to a file with tee; the terminal's output is compared with it byte for
// byte. The built agent, the real Claude Code binary, the scripted Anthropic API.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ZED } from "../../support/client-handshakes.js";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { toolCallEvents } from "../../support/e2e-turns/index.js";
import { bashTurn, metaOf, terminalOutputs } from "../../support/e2e-turns/terminal.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

/** Runs `command` as tool use `id` under Zed's handshake; what the terminal showed and the real output. */
async function run(id: string, command: string) {
  const e2e = await startE2E({
    permission: { answer: "select", optionId: "allow-once" },
    clientCapabilities: ZED.clientCapabilities,
    scenario: [bashTurn(id, command), { content: [{ type: "text", text: "Ran it." }] }],
  });
  const { sessionId } = await e2e.newSession();
  expect(await e2e.prompt(sessionId, "Run the command.")).toMatchObject({
    stopReason: "end_turn",
  });
  const events = toolCallEvents(e2e, sessionId, id);
  const exitAt = events.findIndex((e) => metaOf(e).terminal_exit);
  return {
    pieces: terminalOutputs(e2e, sessionId, id),
    real: await readFile(join(e2e.cwd, "out.txt"), "utf8"),
    // Every output update comes before the exit, which is the last update.
    outputAfterExit: events.slice(exitAt + 1).some((e) => metaOf(e).terminal_output),
    exitIsLast: exitAt === events.length - 1,
  };
}

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\n`).join("");

describe("a command's output on its terminal, compared with what it really printed", () => {
  it("printed only at the end, after Claude Code reported it as a task: all of it, from the result", async () => {
    const shown = await run("toolu_out_end", "sleep 4; seq 1 12 | tee out.txt");
    expect(shown.real).toBe(lines(1, 12));
    expect(shown.pieces.join("")).toBe(shown.real);
    expect(shown.exitIsLast && !shown.outputAfterExit).toBe(true);
  });

  it("printed and exited at once: all of it, from the result", async () => {
    const shown = await run("toolu_out_quick", "seq 1 12 | tee out.txt");
    expect(shown.pieces.join("")).toBe(shown.real);
    expect(shown.exitIsLast).toBe(true);
  });

  it("printed fast, then more after a while: the first part streams, the last comes from the result, nothing twice", async () => {
    const shown = await run(
      "toolu_out_fast_slow",
      "seq 1 5 | tee out.txt; sleep 4; seq 6 9 | tee -a out.txt",
    );
    expect(shown.real).toBe(lines(1, 9));
    expect(shown.pieces.join("")).toBe(shown.real);
    expect(shown.pieces.length).toBeGreaterThan(1);
    expect(shown.exitIsLast && !shown.outputAfterExit).toBe(true);
  });

  it("printed line by line, then a last line as it exits: every line once, the last one included", async () => {
    const shown = await run(
      "toolu_out_last_line",
      "(for i in 1 2 3 4 5; do echo line-$i; sleep 1; done; echo FINAL-LINE) | tee out.txt",
    );
    expect(shown.pieces.join("")).toBe(shown.real);
    expect(shown.real.endsWith("line-5\nFINAL-LINE\n")).toBe(true);
    expect(shown.exitIsLast && !shown.outputAfterExit).toBe(true);
  });

  it("more than the result previews (Claude Code saves the whole to a file): every byte, none twice", async () => {
    const shown = await run("toolu_out_long", "sleep 4; seq 1 20000 | tee out.txt");
    expect(shown.real.length).toBe(108_894);
    expect(shown.pieces.join("")).toBe(shown.real);
    expect(shown.exitIsLast && !shown.outputAfterExit).toBe(true);
  });
});
