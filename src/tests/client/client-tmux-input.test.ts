// The terminal client in a real terminal (tmux) against a stub ACP agent: what typing does
// (paste, history, type-ahead, Ctrl-C, interrupts with queued prompts, steering) and how the
// client starts. What it draws is in client-tmux-screen.test.ts.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  count,
  quote,
  REPO,
  slowTurn,
  startClient,
  STUB_AGENT,
  stopClients,
  trackedTmux,
} from "../support/client-tmux-stub.js";
import type { Tmux } from "../support/tmux.js";

afterEach(stopClients);

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

  it(
    "the agent's guess at the next prompt shows dim under the empty prompt once it arrives; Tab takes it, typing hides it",
    { timeout: 30_000 },
    async () => {
      const tmux = await startClient();
      await tmux.keys("suggest", "Enter");
      await tmux.waitFor(/Suggesting\.[\s\S]*Tab: run the tests/);
      await tmux.keys("x");
      await tmux.waitFor(/› x\s*\n(?![\s\S]*Tab: run the tests)/);
      await tmux.keys("BSpace");
      await tmux.waitFor(/Tab: run the tests/);
      await tmux.keys("Tab");
      await tmux.waitFor(/› run the tests/);
      await tmux.keys("Enter");
      await tmux.waitFor(/You said: "run the tests"/);
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
    const column = async () => (await tmux.cursor()).column;
    await expect.poll(column).toBe(before + 6);
    // The screen does not change on Left: the cursor is watched until it moves.
    await tmux.keys("Left");
    await expect.poll(column).toBe(before + 4);
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
      // "Slow done." is drawn before the turn's end takes the spinner away; a spinner row left
      // behind in the scrollback would never go, so this waits for a screen without one.
      const screen = await tmux.waitFor(/^(?![\s\S]*esc to interrupt)[\s\S]*Slow done\./, 10_000);
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
    "is noted where it was sent: after the paragraph being written, which stays whole (no word split around it), not above it as if Claude had read it first",
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
      expect(done.indexOf("› hurry up")).toBeGreaterThan(done.indexOf("word40"));
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
    const tmux = trackedTmux();
    const agent = join(REPO, "dist", "index.js");
    await tmux.start(`${quote(process.execPath)} ${quote(agent)}; sleep 600`, undefined, REPO);
    await tmux.waitFor(/an ACP client starts it[\s\S]*claude-agent-acp-client -- claude-agent-acp/);
  });
});
