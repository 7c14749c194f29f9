/**
 * Cleaning of text that comes from Claude or from tools before a client shows it:
 * terminal escape sequences and control characters could rewrite what the user sees.
 */

/* eslint-disable no-control-regex -- matching control characters is the point here */
// CSI / OSC / other ESC sequences as terminals interpret them.
const ANSI_ESCAPES =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
// C0 and C1 controls except tab and newline; bidi overrides and isolates (Trojan Source).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /\r\n?|[\u2028\u2029]/g;

// Anything the three passes below would change: most text has none of it.
const NEEDS_CLEANING =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// The same in JSON.stringify's text, which writes C0 controls as escapes (\b, \f, \r, \u00XX).
const JSON_NEEDS_CLEANING =
  /\\[bfr]|\\u00[01]|[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
/* eslint-enable no-control-regex */

/** Removes escape sequences and control characters; keeps newlines and tabs. */
export function cleanMultiline(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text;
  return text.replace(ANSI_ESCAPES, "").replace(LINE_BREAKS, "\n").replace(CONTROL, "");
}

/** One line: controls removed, every run of whitespace (newlines too) collapsed to a space. */
export function cleanSingleLine(text: string): string {
  return cleanMultiline(text).replace(/\s+/g, " ").trim();
}

/**
 * A JSON value as a client may be shown it (a tool's raw input or output): every string in
 * it, keys too, cleaned as cleanMultiline cleans text; the structure and other values kept.
 * A value with nothing to clean is returned as it is; the value given is never changed.
 * It works on the JSON text, so any depth JSON.stringify takes is fine.
 */
export function cleanJson(value: unknown): unknown {
  const json = JSON.stringify(value);
  if (json === undefined || !JSON_NEEDS_CLEANING.test(json)) return value;
  const cleaned = json.replace(JSON_STRING, (literal) =>
    JSON.stringify(cleanMultiline(JSON.parse(literal) as string)),
  );
  return JSON.parse(cleaned) as unknown;
}

/** Whether a path can be shown as it is: one line, and nothing cleaning would change. */
export function isCleanPath(path: string): boolean {
  return cleanMultiline(path) === path && !/[\n\t]/.test(path);
}
