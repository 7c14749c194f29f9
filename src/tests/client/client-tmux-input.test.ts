// The terminal client in a real terminal (tmux) against a stub ACP agent: input (paste,
// history, type-ahead, Ctrl-C), wrapping, resizing and rendering. The client is the built one
// (dist/client/index.js); the agent is src/tests/support/client-stub-agent.ts, bundled.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { LONG_RULE } from "../support/client-stub-texts.js";
import { bundledStubAgent } from "../support/client-stub-build.js";
import { Tmux } from "../support/tmux.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const CLIENT = join(REPO, "dist", "client", "index.js");

const sessions: Tmux[] = [];
afterEach(async () => {
  for (const tmux of sessions.splice(0)) await tmux.kill();
});

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The stub agent's command: the stub bundled once, so each start is quick. */
const STUB_AGENT = [process.execPath, bundledStubAgent()];

/** The client in tmux against the stub agent (or `agent`); no prompt: it asks for one. */
async function startClient(
  columns = 100,
  prompts: string[] = [],
  agent: string[] = STUB_AGENT,
): Promise<Tmux> {
  if (!existsSync(CLIENT)) throw new Error(`${CLIENT} is missing: run \`npm run build\` first.`);
  const tmux = new Tmux();
  sessions.push(tmux);
  const command = [
    "env",
    "-i",
    `PATH=${process.env.PATH ?? "/usr/bin:/bin"}`,
    "TERM=xterm-256color",
    "LANG=C.UTF-8",
    process.execPath,
    CLIENT,
    "--cwd",
    REPO,
    ...prompts,
    "--",
    ...agent,
  ];
  await tmux.start(
    `${command.map(quote).join(" ")}; echo "[client exited $?]"; sleep 600`,
    { columns, rows: 30 },
    REPO,
  );
  if (prompts.length === 0 && agent === STUB_AGENT) await tmux.waitFor(/Enter to send/);
  return tmux;
}

const count = (text: string, part: string): number => text.split(part).length - 1;

/** Sends the stub's "slow" prompt (2 s; `slow5`: 5 s) and waits until its turn is running. */
async function slowTurn(tmux: Tmux, prompt = "slow"): Promise<void> {
  await tmux.keys("-l", prompt);
  await tmux.keys("Enter");
  await tmux.waitFor(/esc to interrupt/);
}

describe("typing in the client", () => {
  it("a paste of two lines arrives whole, as one prompt", { timeout: 30_000 }, async () => {
    const tmux = await startClient();
    await tmux.paste("first line\nsecond line");
    await tmux.waitFor(/› first line\n\s+second line/);
    await tmux.keys("Enter");
    await tmux.waitFor(/You said: "first line\\nsecond line"/);
  });

  it(
    "lines typed ahead in one burst are all kept: the first is sent, the next queued, the last stays on the prompt line",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient();
      await tmux.keys("r1", "Enter", "r2", "Enter", "r3");
      await tmux.waitFor(/You said: "r1"[\s\S]*You said: "r2"/);
      await tmux.waitFor(/› r3/);
    },
  );

  it("a paste without bracketed paste loses no line either", { timeout: 30_000 }, async () => {
    const tmux = await startClient();
    await tmux.paste("p1\np2\np3", { bracketed: false });
    await tmux.waitFor(/You said: "p1"[\s\S]*You said: "p2"/);
    await tmux.waitFor(/› p3/);
  });

  it("after 日本語 the cursor stands where the terminal drew its end: two columns a character", async () => {
    const tmux = await startClient();
    await tmux.keys("-l", "日本語");
    const screen = await tmux.waitFor(/› 日本語/);
    const row = screen.split("\n").find((line) => line.includes("› 日本語"))!;
    const before = [...row.slice(0, row.indexOf("日本語"))].length;
    expect((await tmux.cursor()).column).toBe(before + 6);
    await tmux.keys("Left");
    await tmux.waitFor(/› 日本語/);
    expect((await tmux.cursor()).column).toBe(before + 4);
  });

  it("a prompt of CJK text longer than a row is redrawn in place as it grows: no stale copy of its rows", async () => {
    const tmux = await startClient(40);
    const first = "日本語の文章を入力しています";
    await tmux.keys("-l", `${first}。二行目に続く長い文です`);
    await tmux.waitFor(/長い文です/);
    for (const added of ["あ", "い", "う", "え", "お"]) await tmux.keys("-l", added);
    const screen = await tmux.waitFor(/長い文ですあいうえお/);
    expect(count(screen, first)).toBe(1);
    expect(count(screen, "あいうえお")).toBe(1);
  });

  it("↑ recalls the previous prompt", { timeout: 30_000 }, async () => {
    const tmux = await startClient();
    await tmux.keys("-l", "hello there");
    await tmux.keys("Enter");
    await tmux.waitFor(/You said: "hello there"/);
    await tmux.waitFor(/Enter to send/);
    await tmux.keys("Up");
    await tmux.keys("Enter");
    await tmux.waitFor(/You said: "hello there"[\s\S]*You said: "hello there"/);
  });

  it(
    "text typed while Claude works is kept: Enter queues it as the next prompt",
    {
      timeout: 30_000,
    },
    async () => {
      const tmux = await startClient();
      await slowTurn(tmux);
      await tmux.keys("-l", "and then this");
      await tmux.keys("Enter");
      await tmux.waitFor(/queued: and then this/);
      const screen = await tmux.waitFor(/You said: "and then this"/);
      expect(screen.indexOf("Slow done.")).toBeLessThan(
        screen.indexOf('You said: "and then this"'),
      );
    },
  );

  it(
    "typing while Claude works keeps one status line: the spinner is redrawn in place, never added below",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient();
      // Long enough that the turn still runs when the rows are counted, however slow the machine.
      await slowTurn(tmux, "slow5");
      await tmux.keys("-l", "x");
      await tmux.waitFor(/› x/);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(count(await tmux.capture(), "esc to interrupt")).toBe(1);
      const screen = await tmux.waitFor(/Slow done\./);
      expect(count(screen, "esc to interrupt")).toBe(0);
    },
  );

  it(
    "two quick Ctrl-Cs during a turn quit, even when the agent ends the turn at the first",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient();
      await slowTurn(tmux);
      await tmux.keys("C-c");
      await tmux.waitFor(/Press Ctrl-C again to exit/);
      await tmux.keys("C-c");
      await tmux.waitFor(/\[client exited 0\]/);
    },
  );

  it(
    "Ctrl-C with text clears the line; a second Ctrl-C on the empty line exits",
    {
      timeout: 30_000,
    },
    async () => {
      const tmux = await startClient();
      await tmux.keys("-l", "some text");
      await tmux.waitFor(/› some text/);
      await tmux.keys("C-c");
      await tmux.waitFor(/Press Ctrl-C again to exit/);
      expect(await tmux.capture()).not.toContain("some text");
      await tmux.keys("C-c");
      await tmux.waitFor(/\[client exited 0\]/);
    },
  );
});

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

describe("an interrupt while prompts are queued", () => {
  /** A 5 s turn with `queued` typed and queued (Tab) under it, then Ctrl-C. */
  async function interruptWithQueue(queued: string[]): Promise<Tmux> {
    const tmux = await startClient();
    await slowTurn(tmux, "slow5");
    for (const text of queued) {
      await tmux.keys("-l", text);
      await tmux.keys("Tab");
    }
    await tmux.waitFor(new RegExp(`queued: ${queued.at(-1)}`));
    await tmux.keys("C-c");
    await tmux.waitFor(/are held|is held/);
    return tmux;
  }

  it("holds them: none starts on its own, and a second Ctrl-C quits", async () => {
    const tmux = await interruptWithQueue(["q-one", "q-two"]);
    expect(await tmux.capture()).toContain("2 queued prompts are held");
    await tmux.keys("C-c");
    const screen = await tmux.waitFor(/\[client exited \d+\]/);
    expect(screen).not.toContain('You said: "q-one"');
  });

  it("Enter sends the held prompts, in order; Esc drops them", async () => {
    const sent = await interruptWithQueue(["q-one", "q-two"]);
    await sent.keys("Enter");
    const screen = await sent.waitFor(/You said: "q-two"/);
    expect(screen.indexOf('You said: "q-one"')).toBeLessThan(screen.indexOf('You said: "q-two"'));

    const dropped = await interruptWithQueue(["q-gone"]);
    await dropped.keys("Escape");
    await dropped.waitFor(/Held prompts dropped/);
    await dropped.keys("-l", "fresh");
    await dropped.keys("Enter");
    expect(await dropped.waitFor(/You said: "fresh"/)).not.toContain('You said: "q-gone"');
  });
});

describe("lines typed in one burst with an agent that steers", () => {
  it("the first line is the prompt and goes first; the next ones are steered into its turn, and each says what became of it", async () => {
    const tmux = await startClient(100, [], ["env", "STUB_STEERING=1", ...STUB_AGENT]);
    await tmux.waitFor(/Enter to send/);
    // "slow" runs 2 s: the lines after it reach the agent while its turn runs.
    await tmux.keys("slow", "Enter", "burst two", "Enter", "burst three", "Enter");
    await tmux.waitFor(/Slow done\./);
    await tmux.waitFor(/Enter to send/);
    const screen = await tmux.capture();
    expect(screen).toContain("› burst two (sent to the running turn)");
    expect(screen).toContain("› burst three (sent to the running turn)");
    // What was steered is not also sent again as a prompt.
    expect(screen).not.toContain('You said: "burst');
  });
});

describe("a steer sent mid-reply", () => {
  it(
    "is noted above the paragraph being written, which stays whole: no word split around it",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient(60, [], ["env", "STUB_STEERING=1", ...STUB_AGENT]);
      await tmux.waitFor(/Enter to send/);
      await tmux.keys("-l", "long");
      await tmux.keys("Enter");
      await tmux.waitFor(/word5 /);
      await tmux.keys("-l", "hurry up");
      await tmux.keys("Enter");
      const done = await tmux.waitFor(/The end\./);
      expect(done).toContain("› hurry up (sent to the running turn)");
      const paragraph = done.slice(done.indexOf("word1 "), done.indexOf("word40") + 6);
      expect(paragraph).not.toContain("›");
      expect(paragraph.split(/\s+/)).toEqual(Array.from({ length: 40 }, (_, i) => `word${i + 1}`));
    },
  );
});

describe("an agent that never answers initialize", () => {
  it(
    "the client says at once that it is starting the agent, and Ctrl-C, Esc or Ctrl-D quits",
    { timeout: 30_000 },
    async () => {
      for (const key of ["C-c", "Escape", "C-d"]) {
        const tmux = await startClient(100, [], ["sleep", "600"]);
        await tmux.waitFor(/Starting the agent \(Ctrl-C quits\)/, 5_000);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(count(await tmux.capture(), "Starting the agent")).toBe(1);
        await tmux.keys(key);
        await tmux.waitFor(/\[client exited 130\]/, 5_000);
      }
    },
  );
});

describe("the agent started by hand in a terminal", () => {
  it("says on stderr that an ACP client starts it, and how", { timeout: 30_000 }, async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    const agent = join(REPO, "dist", "index.js");
    await tmux.start(`${quote(process.execPath)} ${quote(agent)}; sleep 600`, undefined, REPO);
    await tmux.waitFor(/an ACP client starts it[\s\S]*claude-agent-acp-client -- claude-agent-acp/);
  });
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
