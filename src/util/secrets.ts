/**
 * Values the agent holds that nobody may read in what it prints: a provider's header values
 * (tokens, keys). Every log line and every error sent to a client passes through `redact`,
 * so a secret that reaches a message by any path (Claude Code's stderr, a gateway's error
 * echoing a token) is shown as `[redacted]`.
 */
const secrets = new Set<string>();

/** Shorter values are no secrets worth hiding, and hiding them would garble every line. */
const SHORTEST_SECRET = 4;

export const REDACTED = "[redacted]";

/**
 * These are secrets from now on, for the agent's life: a process started with an old one
 * may still print it after the client replaced it.
 */
export function holdSecrets(values: Iterable<string>): void {
  for (const value of values) {
    if (value.length >= SHORTEST_SECRET) secrets.add(value);
  }
}

/** The text with every secret held replaced by `[redacted]`, the longest first. */
export function redact(text: string): string {
  if (secrets.size === 0) return text;
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  }
  return out;
}

/** A value as JSON with its secrets redacted, parsed back; values JSON cannot hold stay. */
export function redactValue<T>(value: T): T {
  if (secrets.size === 0 || value === undefined) return value;
  try {
    return JSON.parse(redact(JSON.stringify(value))) as T;
  } catch {
    return value;
  }
}
