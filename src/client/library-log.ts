// What libraries log while the client runs. The ACP SDK reports some failures only with
// console.error (a notification handler that threw, a message it could not read): written to
// the terminal, that text would land over the status line or inside an open box. While the
// client runs, the console's methods report to the client's own lines instead.
/* eslint-disable no-console -- this module replaces the console's methods; it prints nothing */
import { inspect } from "node:util";
import { cutField } from "./text-limits.js";

export interface LibraryLogSink {
  /** console.error: shown as the client's errors are. */
  error(text: string): void;
  /** console.warn, log, info, debug: shown as the client's notes are. */
  note(text: string): void;
}

const METHODS = ["error", "warn", "log", "info", "debug"] as const;

/** A logged value as text: a string as it is, an error by its message, an object's fields. */
function describe(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.message;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const fields = Object.entries(value).map(([key, v]) => `${key}: ${describe(v)}`);
    return `(${fields.join(", ")})`;
  }
  return inspect(value, { breakLength: Infinity });
}

/** What console.x was called with, as one line of text (cut to a field's length). */
export function libraryLine(args: readonly unknown[]): string {
  return cutField(args.map(describe).join(" "));
}

/**
 * Until the returned function is called, console.error (and warn, log, info, debug) report
 * to `sink`, not to the process's stdout or stderr.
 */
export function captureConsole(sink: LibraryLogSink): () => void {
  // Kept as descriptors: put back as they were, the very same functions.
  const saved = METHODS.map(
    (method) => [method, Object.getOwnPropertyDescriptor(console, method)] as const,
  );
  for (const method of METHODS) {
    console[method] = (...args: unknown[]) => {
      const text = libraryLine(args);
      if (method === "error") sink.error(text);
      else sink.note(text);
    };
  }
  return () => {
    for (const [method, descriptor] of saved) {
      if (descriptor) Object.defineProperty(console, method, descriptor);
    }
  };
}
