// Keys from the terminal: raw mode, one reader at a time, the rest to a fallback handler.
import { emitKeypressEvents } from "node:readline";
import { RESIZE, type Key } from "./keys.js";

/** Where keys come from; tests feed one by hand. */
export interface KeySource {
  /** The next key, or undefined when `signal` aborts first. */
  next(signal?: AbortSignal): Promise<Key | undefined>;
  /**
   * While captured (a request box or the prompt is open), keys wait in a queue for `next`:
   * a burst of keys (a paste) arrives in one go. The returned function releases the capture.
   * A box never reads keys typed before it opened, and drops those left when it closes: they
   * must not answer it, or the next one. The prompt (`prompt`) reads keys typed ahead of it,
   * and leaves those typed after its Enter (lines of one burst) to what reads next.
   */
  capture(prompt?: boolean): () => void;
  /** Gets the keys typed while nothing captures them (e.g. Ctrl-C while a turn runs). */
  setFallback(handler: ((key: Key) => void) | undefined): void;
  close(): void;
}

/** A KeySource fed by `push` (tests, and the TTY adapter below). */
export class KeyQueue implements KeySource {
  private reader: ((key: Key | undefined) => void) | undefined;
  private fallback: ((key: Key) => void) | undefined;
  private readonly buffer: Key[] = [];
  private captured = 0;

  push(key: Key): void {
    const reader = this.reader;
    if (reader) {
      this.reader = undefined;
      reader(key);
    } else if (this.captured > 0) {
      this.buffer.push(key);
    } else {
      this.fallback?.(key);
    }
  }

  capture(prompt = false): () => void {
    if (this.captured === 0 && !prompt) this.buffer.length = 0;
    this.captured++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.captured--;
      if (this.captured === 0 && !prompt) this.buffer.length = 0;
    };
  }

  next(signal?: AbortSignal): Promise<Key | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    const buffered = this.buffer.shift();
    if (buffered) return Promise.resolve(buffered);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        if (this.reader === done) this.reader = undefined;
        resolve(undefined);
      };
      const done = (key: Key | undefined): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve(key);
      };
      this.reader?.(undefined); // one reader at a time: a newer one wins
      this.reader = done;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  setFallback(handler: ((key: Key) => void) | undefined): void {
    this.fallback = handler;
    // Keys the prompt left (typed after its Enter, in the same burst) come first, in order.
    while (handler && this.fallback === handler && this.captured === 0 && this.buffer.length) {
      handler(this.buffer.shift()!);
    }
  }

  close(): void {
    this.reader?.(undefined);
    this.reader = undefined;
    this.fallback = undefined;
  }
}

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";

/**
 * Keys of a TTY stdin in raw mode, with bracketed paste on: the keys of a paste are marked
 * (`paste`), so a pasted newline does not submit. A resize of `stdout` arrives as `RESIZE`.
 * `close()` restores the terminal.
 */
export function terminalKeys(stdin: NodeJS.ReadStream, stdout?: NodeJS.WriteStream): KeySource {
  const queue = new KeyQueue();
  emitKeypressEvents(stdin);
  let pasting = false;
  let lastReturn = false;
  const onKey = (text: string | undefined, key: Key | undefined): void => {
    const pressed = key ?? { sequence: text };
    if (pressed.name === "paste-start" || pressed.name === "paste-end") {
      pasting = pressed.name === "paste-start";
      return;
    }
    // A pasted CRLF is one newline.
    const crlf = pasting && lastReturn && pressed.name === "enter";
    lastReturn = pressed.name === "return";
    if (crlf) return;
    queue.push(pasting ? { ...pressed, paste: true } : pressed);
  };
  const onResize = (): void => queue.push(RESIZE);
  stdin.setRawMode(true);
  stdin.on("keypress", onKey);
  stdin.resume();
  stdout?.write(PASTE_ON);
  stdout?.on("resize", onResize);
  return {
    next: (signal) => queue.next(signal),
    capture: (prompt) => queue.capture(prompt),
    setFallback: (handler) => queue.setFallback(handler),
    close: () => {
      queue.close();
      stdin.off("keypress", onKey);
      stdout?.off("resize", onResize);
      stdout?.write(PASTE_OFF);
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
    },
  };
}
