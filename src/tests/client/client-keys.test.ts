// The terminal client's key handling: menus, the line editor, and the key queue.
import { describe, expect, it } from "vitest";
import { KeyQueue } from "../../client/input.js";
import {
  EMPTY_LINE,
  lineKey,
  menuKey,
  type Key,
  type LineState,
  type MenuState,
} from "../../client/keys.js";

const key = (name: string, extra: Partial<Key> = {}): Key => ({ name, sequence: name, ...extra });
const ch = (c: string): Key => ({
  name: /^[a-z0-9]$/i.test(c) ? c.toLowerCase() : undefined,
  sequence: c,
});
const ctrl = (name: string): Key => ({ name, ctrl: true, sequence: "" });

function press(state: MenuState, ...keys: Key[]): { state: MenuState; action?: string } {
  let step: { state: MenuState; action?: string } = { state };
  for (const k of keys) step = menuKey(step.state, k);
  return step;
}

function type(state: LineState, ...keys: Key[]): { state: LineState; action?: string } {
  let step: { state: LineState; action?: string } = { state };
  for (const k of keys) step = lineKey(step.state, k);
  return step;
}

describe("menu keys", () => {
  const menu: MenuState = { cursor: 0, count: 3 };

  it("moves with the arrows and wraps around at both ends", () => {
    expect(press(menu, key("down")).state.cursor).toBe(1);
    expect(press(menu, key("up")).state.cursor).toBe(2);
    expect(press(menu, key("down"), key("down"), key("down")).state.cursor).toBe(0);
    expect(press(menu, key("end")).state.cursor).toBe(2);
    expect(press({ ...menu, cursor: 2 }, key("home")).state.cursor).toBe(0);
  });

  it("chooses the item of a number key at once (as Claude Code), ignoring numbers past the end", () => {
    expect(press(menu, ch("3"))).toEqual({ state: { ...menu, cursor: 2 }, action: "confirm" });
    expect(press(menu, ch("4"))).toEqual({ state: menu });
    const multi = { ...menu, checked: [false, false, false] };
    expect(press(multi, ch("2"))).toEqual({ state: { ...multi, cursor: 1 } }); // only moves
  });

  it("confirms with Enter, cancels with Esc, interrupts with Ctrl-C", () => {
    expect(press(menu, key("down"), key("return"))).toEqual({
      state: { ...menu, cursor: 1 },
      action: "confirm",
    });
    expect(press(menu, key("escape")).action).toBe("cancel");
    expect(press(menu, ctrl("c")).action).toBe("interrupt");
  });

  it("ticks with Space only in multi-select menus", () => {
    expect(press(menu, key("space")).state).toEqual(menu);
    const multi = press({ ...menu, checked: [false, false, false] }, key("down"), key("space"));
    expect(multi.state.checked).toEqual([false, true, false]);
    expect(press(multi.state, key("space")).state.checked).toEqual([false, false, false]);
  });

  it("ignores other keys", () => {
    expect(press(menu, ch("x"), key("left"))).toEqual({ state: menu });
  });
});

describe("line editor keys", () => {
  it("inserts typed characters at the cursor and edits with Backspace, arrows and Ctrl-U", () => {
    const typed = type(EMPTY_LINE, ch("a"), ch("c"), key("left"), ch("b"));
    expect(typed.state).toEqual({ text: "abc", cursor: 2 });
    expect(type(typed.state, key("backspace")).state).toEqual({ text: "ac", cursor: 1 });
    expect(type(typed.state, key("delete")).state).toEqual({ text: "ab", cursor: 2 });
    expect(type(typed.state, key("home"), ch("_")).state.text).toBe("_abc");
    expect(type(typed.state, ctrl("u")).state).toEqual({ text: "c", cursor: 0 });
    expect(type(typed.state, key("end"), ctrl("u")).state).toEqual(EMPTY_LINE);
  });

  it("inserts a pasted Enter as a newline instead of submitting", () => {
    const pasted = type(EMPTY_LINE, ch("a"), key("return", { paste: true }), ch("b"));
    expect(pasted).toEqual({ state: { text: "a\nb", cursor: 3 } });
  });

  it("makes a new line with \\ then Enter, Alt-Enter or Ctrl-J (enter), as in Claude Code", () => {
    expect(type(EMPTY_LINE, ch("a"), ch("\\"), key("return")).state.text).toBe("a\n");
    expect(type(EMPTY_LINE, ch("a"), key("return", { meta: true })).state.text).toBe("a\n");
    expect(type(EMPTY_LINE, ch("a"), key("enter")).state.text).toBe("a\n");
  });

  it("moves between lines with Up/Down, and asks for history past the first or last line", () => {
    const two = type(EMPTY_LINE, ch("a"), ch("b"), key("enter"), ch("c"));
    expect(type(two.state, key("up")).state).toEqual({ text: "ab\nc", cursor: 1 });
    expect(type(two.state, key("up"), key("up")).action).toBe("previous");
    expect(type(two.state, key("down")).action).toBe("next");
    expect(type(two.state, key("up"), key("down")).state.cursor).toBe(4);
  });

  it("takes spaces and non-ASCII text, but no control characters", () => {
    expect(type(EMPTY_LINE, ch("é"), { name: "space", sequence: " " }, ch("✓")).state.text).toBe(
      "é ✓",
    );
    expect(type(EMPTY_LINE, { name: "tab", sequence: "\t" }).state).toEqual(EMPTY_LINE);
  });

  it("submits with Enter, cancels with Esc, interrupts with Ctrl-C, ends with Ctrl-D on an empty line", () => {
    expect(type(EMPTY_LINE, ch("x"), key("return"))).toEqual({
      state: { text: "x", cursor: 1 },
      action: "submit",
    });
    expect(type(EMPTY_LINE, key("escape")).action).toBe("cancel");
    expect(type(EMPTY_LINE, ctrl("c")).action).toBe("interrupt");
    expect(type(EMPTY_LINE, ctrl("d")).action).toBe("eof");
    expect(type({ text: "x", cursor: 1 }, ctrl("d")).action).toBeUndefined();
  });
});

describe("key queue", () => {
  it("keeps a burst of keys (a paste) for the box that captured them", async () => {
    const queue = new KeyQueue();
    const release = queue.capture();
    for (const c of "hi!") queue.push(ch(c));
    const got = [await queue.next(), await queue.next(), await queue.next()].map(
      (k) => k?.sequence,
    );
    expect(got).toEqual(["h", "i", "!"]);
    release();
  });

  it("hands keys nobody captured to the fallback, and drops keys left when a box closes", async () => {
    const queue = new KeyQueue();
    const fallback: Key[] = [];
    queue.setFallback((k) => fallback.push(k));
    queue.push(ctrl("c"));
    expect(fallback).toEqual([ctrl("c")]);
    const release = queue.capture();
    queue.push(ch("1"));
    release();
    queue.capture();
    const controller = new AbortController();
    const next = queue.next(controller.signal);
    controller.abort();
    expect(await next).toBeUndefined();
    expect(fallback).toHaveLength(1);
  });

  it("keeps the keys typed after the prompt's Enter in one burst: the running turn's handler gets them, in order; a box never does", async () => {
    const queue = new KeyQueue();
    const release = queue.capture(true);
    for (const c of "r1\rr2\rr3") queue.push(c === "\r" ? { name: "return" } : ch(c));
    const read = [await queue.next(), await queue.next(), await queue.next()];
    expect(read.map((k) => k?.sequence ?? k?.name)).toEqual(["r", "1", "return"]);
    release();
    const typed: Key[] = [];
    queue.setFallback((k) => typed.push(k));
    expect(typed.map((k) => k.sequence ?? k.name)).toEqual(["r", "2", "return", "r", "3"]);

    // Left over when a box opens: the box does not read them.
    const ahead = new KeyQueue();
    const prompt = ahead.capture(true);
    ahead.push(ch("1"));
    prompt();
    ahead.capture();
    const controller = new AbortController();
    const next = ahead.next(controller.signal);
    controller.abort();
    expect(await next).toBeUndefined();
  });
});
