// What no text shown to a user may hold: control characters but tab and newline (ESC starts
// every escape sequence; C1 has CSI and OSC of its own) and bidi overrides and isolates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every string of a JSON value, object keys too, that holds such a character. */
export function unsafeStrings(value: unknown): string[] {
  if (typeof value === "string") return UNSAFE.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(unsafeStrings);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, v]) => [
      ...(UNSAFE.test(key) ? [key] : []),
      ...unsafeStrings(v),
    ]);
  }
  return [];
}
