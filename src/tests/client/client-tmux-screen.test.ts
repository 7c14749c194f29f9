// The terminal client in a real terminal (tmux) against a stub ACP agent: what it draws
// (long replies, resizes, markdown, tool calls, the status line, task lists, command output,
// plans, permission boxes). What typing does is in client-tmux-input.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { LONG_RULE } from "../support/client-stub-texts.js";
import { count, slowTurn, startClient, stopClients } from "../support/client-tmux-stub.js";

afterEach(stopClients);

describe("a long reply", () => {
  it(
    "shows its paragraph as it streams, and once it is finished prints it once, rendered",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(60);
      await tmux.keys("-l", "long");
      await tmux.keys("Enter");
      const early = await tmux.waitFor(/word10 /);
      expect(early).not.toContain("word40");
      const done = await tmux.waitFor(/The end\./);
      const words = (word: string) => done.match(new RegExp(`\\b${word}\\b`, "g"))?.length ?? 0;
      expect([words("word10"), words("word40")]).toEqual([1, 1]);
    },
  );
});

describe("a resize while a reply streams", () => {
  it(
    "leaves the reply once, whole, and one prompt: nothing of the preview stays behind",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(90);
      await tmux.keys("-l", "long");
      await tmux.keys("Enter");
      await tmux.waitFor(/word8 /);
      await tmux.resize(50, 30);
      await tmux.waitFor(/word20 /);
      await tmux.resize(70, 30);
      const done = await tmux.waitFor(/The end\.[\s\S]*Enter to send/);
      for (const word of ["word1", "word8", "word20", "word40"]) {
        expect(done.match(new RegExp(`\\b${word}\\b`, "g"))).toHaveLength(1);
      }
      expect(count(done, "The end.")).toBe(1);
      expect(count(done, "› long")).toBe(1);
    },
  );
});

describe("rendering", () => {
  it(
    "renders the agent's markdown: heading and bold without the markup",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(100, ["md"]);
      const screen = await tmux.waitFor(/\[client exited \d+\]/);
      expect(screen).toMatch(/^Summary$/m);
      expect(screen).toContain("This is bold and code.");
      expect(screen).not.toMatch(/## |\*\*|```/);
    },
  );
});

describe("tool calls", () => {
  it(
    "a tool call's status line is updated in place: running, then one completed line",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(100, ["tool"]);
      const screen = await tmux.waitFor(/\[client exited \d+\]/);
      expect(screen).toContain("● Build");
      expect(count(screen, "└")).toBe(1);
      expect(screen).toContain("└ ✓ completed");
      expect(screen).not.toContain("running");
    },
  );
});

describe("the status line in a narrow terminal", () => {
  it("keeps its words and its timer whole: no word is cut", { timeout: 30_000 }, async () => {
    const tmux = await startClient(30);
    await tmux.keys("-l", "slow5");
    await tmux.keys("Enter");
    const screen = await tmux.waitFor(/Working… \(\ds\)/);
    expect(screen).not.toMatch(/esc to i\S*…|\(\ds ·/);
    await tmux.keys("Escape");
  });
});

describe("the task list of an interrupted turn", () => {
  it(
    "shows the task in progress as stopped once Esc ended the turn",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient();
      await slowTurn(tmux, "tasks");
      await tmux.keys("Escape");
      const screen = await tmux.waitFor(/Turn ended \(cancelled\)/);
      const after = screen.slice(screen.lastIndexOf("◆ Tasks"));
      expect(after).toMatch(/⊘ Fixing add\(\) \(stopped\)/);
      expect(after).not.toContain("◐");
      expect(after.indexOf("(stopped)")).toBeLessThan(after.indexOf("Turn ended"));
      expect(count(screen, "◆ Tasks")).toBe(1); // the list held back is shown once, stopped
    },
  );
});

describe("a command's live output", () => {
  it(
    "streams under the command, and leaves one status line once it ended: no stale running line",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(100, ["stream"]);
      const running = await tmux.waitFor(/step 2/);
      expect(running).toContain("◐ running");
      const screen = await tmux.waitFor(/\[client exited \d+\]/);
      expect(screen).not.toContain("running");
      expect(count(screen, "└")).toBe(1);
      expect(screen).toMatch(/step 6\n\s*└ ✓ completed · exit code 0/);
      expect(count(screen, "step 1")).toBe(1);
    },
  );
});

describe("a plan to approve", () => {
  it("shows the plan rendered, without its markdown", { timeout: 30_000 }, async () => {
    const tmux = await startClient(100, ["plan"]);
    const screen = await tmux.waitFor(/Esc to cancel/);
    expect(screen).toMatch(/│ Plan: Test negative numbers/);
    expect(screen).toContain("Add assert.equal(add(-2, -3), -5) to test.js.");
    expect(screen).not.toMatch(/# Plan|`|\*\*/);
    await tmux.keys("1");
    await tmux.waitFor(/Answered: yes/);
  });
});

describe("a command the user rejects", () => {
  it(
    "shows that it did not run: no exit, and not Claude Code's note to the model as its output",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(100, ["run"]);
      await tmux.waitFor(/Esc to cancel/);
      await tmux.keys("2");
      await tmux.waitFor(/Feedback for Claude/);
      await tmux.keys("Enter");
      const screen = await tmux.waitFor(/\[client exited \d+\]/);
      expect(screen).toContain("✗ rejected, not run");
      expect(screen).not.toContain("exited ·");
      expect(screen).not.toMatch(/· exited|failed/);
      expect(screen).not.toContain("doesn't want to proceed");
    },
  );

  it("Esc in its box shows that it did not run: not Claude Code's note to the model as its output", async () => {
    const tmux = await startClient(100, ["run"]);
    await tmux.waitFor(/Esc to cancel/);
    await tmux.keys("Escape");
    const screen = await tmux.waitFor(/\[client exited \d+\]/);
    expect(screen).toContain("not run");
    expect(screen).not.toMatch(/· exited|failed/);
    expect(screen).not.toContain("doesn't want to proceed");
  });

  it("a command the user allows shows its output and exit code", { timeout: 30_000 }, async () => {
    const tmux = await startClient(100, ["run"]);
    await tmux.waitFor(/Esc to cancel/);
    await tmux.keys("1");
    const screen = await tmux.waitFor(/\[client exited \d+\]/);
    expect(screen).toContain("tests passed");
    expect(screen).toMatch(/✓ completed · exit code 0/);
  });
});

describe("boxes in a narrow or resized terminal", () => {
  it(
    "shows a 200-character rule label whole, wrapped, at 60 columns",
    { timeout: 30_000 },
    async () => {
      expect(LONG_RULE.length).toBeGreaterThan(190);
      const tmux = await startClient(60, ["ask"]);
      const screen = await tmux.waitFor(/Esc to cancel/);
      expect(screen).not.toContain("…");
      const option = /│ {3}2\. ([\s\S]*?)\n│ {3}3\. No/.exec(screen)?.[1];
      // Each wrapped row keeps the box's border.
      expect(
        option
          ?.split("\n")
          .slice(1)
          .every((row) => row.startsWith("│ ")),
      ).toBe(true);
      expect(option?.replace(/\s*\n│\s*/g, " ")).toBe(LONG_RULE);
      await tmux.keys("2");
      await tmux.waitFor(/Answered: always/);
    },
  );

  it(
    "a resize during a permission box leaves exactly one box on screen and in scrollback",
    {
      timeout: 30_000,
    },
    async () => {
      const tmux = await startClient(110, ["ask"]);
      await tmux.waitFor(/Esc to cancel/);
      await tmux.resize(60, 30);
      await new Promise((r) => setTimeout(r, 500));
      await tmux.resize(45, 30);
      await new Promise((r) => setTimeout(r, 500));
      const screen = await tmux.capture();
      expect(count(screen, "❯")).toBe(1);
      expect(count(screen, "Permission: npm test")).toBe(1);
      expect(count(screen, "Esc to")).toBe(1);
      await tmux.keys("Enter");
      await tmux.waitFor(/Answered: once/);
    },
  );

  it(
    "a resize during a box keeps what was printed before it, once, wrapped at the new width",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(110, ["ask"]);
      await tmux.waitFor(/Esc to cancel/);
      await tmux.resize(60, 30);
      await new Promise((r) => setTimeout(r, 500));
      await tmux.resize(45, 30);
      await new Promise((r) => setTimeout(r, 500));
      const screen = await tmux.capture();
      expect(count(screen, "› ask")).toBe(1);
      expect(count(screen, "Let me check first.")).toBe(1);
      expect(screen.indexOf("Let me check first.")).toBeLessThan(screen.indexOf("Permission"));
      await tmux.keys("Enter");
      await tmux.waitFor(/Answered: once/);
    },
  );
});
