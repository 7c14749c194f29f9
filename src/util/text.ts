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
