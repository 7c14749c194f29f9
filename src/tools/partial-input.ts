import type { ToolInput } from "./types.js";

/**
 * The top-level fields of a tool input whose JSON is still streaming: those already
 * complete. Strings, booleans and null count once their last character arrived, numbers
 * once something follows them (`12` may still become `123`), objects and arrays once
 * closed. Never throws: anything malformed ends the scan with the fields found so far.
 */
export function parsePartialInput(text: string): ToolInput {
  const fields = new Map<string, unknown>();
  try {
    scanObject(text, fields);
  } catch {
    // A value JSON.parse rejects: keep what came before it.
  }
  return Object.fromEntries(fields);
}

const WHITESPACE = /[ \t\n\r]/;

function skipWhitespace(text: string, at: number): number {
  let i = at;
  while (i < text.length && WHITESPACE.test(text.charAt(i))) i++;
  return i;
}

/** Index just past the string starting at `at` (a quote), or undefined if unfinished. */
function stringEnd(text: string, at: number): number | undefined {
  for (let i = at + 1; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === "\\") i++;
    else if (char === '"') return i + 1;
  }
  return undefined;
}

/** Index just past the object or array starting at `at`, or undefined if still open. */
function containerEnd(text: string, at: number): number | undefined {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '"') {
      const end = stringEnd(text, i);
      if (end === undefined) return undefined;
      i = end - 1;
    } else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** Index just past a number or literal, or undefined if more characters could follow. */
function scalarEnd(text: string, at: number): number | undefined {
  let i = at;
  while (i < text.length && /[-+.0-9eEa-z]/.test(text.charAt(i))) i++;
  if (i < text.length) return i;
  // At the end of the text only a whole literal is surely complete.
  const word = text.slice(at);
  return word === "true" || word === "false" || word === "null" ? i : undefined;
}

function valueEnd(text: string, at: number): number | undefined {
  const char = text.charAt(at);
  if (char === '"') return stringEnd(text, at);
  if (char === "{" || char === "[") return containerEnd(text, at);
  return scalarEnd(text, at);
}

function scanObject(text: string, fields: Map<string, unknown>): void {
  let i = skipWhitespace(text, 0);
  if (text.charAt(i) !== "{") return;
  i++;
  for (;;) {
    i = skipWhitespace(text, i);
    if (text.charAt(i) !== '"') return;
    const keyEnd = stringEnd(text, i);
    if (keyEnd === undefined) return;
    const key: unknown = JSON.parse(text.slice(i, keyEnd));
    i = skipWhitespace(text, keyEnd);
    if (text.charAt(i) !== ":") return;
    i = skipWhitespace(text, i + 1);
    if (i >= text.length) return;
    const end = valueEnd(text, i);
    if (end === undefined || typeof key !== "string") return;
    fields.set(key, JSON.parse(text.slice(i, end)));
    i = skipWhitespace(text, end);
    if (text.charAt(i) !== ",") return;
    i++;
  }
}
