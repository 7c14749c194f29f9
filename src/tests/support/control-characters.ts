// Hostile text for tests of what a client is shown, and a finder of what got through.

/** Escape sequences and controls that could rewrite what a terminal or editor shows. */
export const HOSTILE_TEXT = {
  CSI: "\u001b[2J",
  OSC_TITLE: "\u001b]0;pwned\u0007",
  OSC_LINK: "\u001b]8;;https://evil.example\u001b\\",
  C1_CSI: "\u009b",
  RLO: "\u202e",
} as const;

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every string (keys too) in `value` that holds a control character, with where it is. */
export function controlStrings(value: unknown, at = "$"): string[] {
  if (typeof value === "string") {
    return CONTROL.test(value) ? [`${at}: ${JSON.stringify(value)}`] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => controlStrings(item, `${at}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(CONTROL.test(key) ? [`${at} key ${JSON.stringify(key)}`] : []),
    ...controlStrings(item, `${at}.${key}`),
  ]);
}
