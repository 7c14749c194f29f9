// A transcript's entries for session/load, read as they stream in from disk: each line is
// parsed once, while the next chunk is read. The conversation is then taken from them by the
// SDK's own rules (its getSessionMessages over a store that holds these entries), so the SDK
// neither reads the file again nor copies it whole first, and the chain is Claude Code's.
import { createReadStream } from "node:fs";
import type { SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";

/**
 * Records Claude Code keeps beside the conversation that the SDK's chain never reads (they
 * carry no `uuid`): a line that names one of these types first is skipped unparsed. They are
 * a large share of a long transcript (each API request's shape, for one).
 */
const SKIPPED_TYPES = new Set([
  "api-request",
  "api-request-blob",
  "api-request-shape",
  "cost-state",
  "last-prompt",
  "atis-latch",
  "tools-used",
  "custom-title",
  "ai-title",
]);
const TYPE_FIRST = Buffer.from('{"type":"');
/** Longer than any skipped type's name. */
const TYPE_NAME_LIMIT = 24;
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** Chunks of the file read at once: the next is read while this one's lines are parsed. */
const CHUNK_BYTES = 1024 * 1024;

function skipped(buffer: Buffer, start: number, end: number): boolean {
  const name = start + TYPE_FIRST.length;
  if (end <= name || buffer.compare(TYPE_FIRST, 0, TYPE_FIRST.length, start, name) !== 0) {
    return false;
  }
  const quote = buffer.indexOf(QUOTE, name);
  return (
    quote > name &&
    quote - name <= TYPE_NAME_LIMIT &&
    SKIPPED_TYPES.has(buffer.toString("latin1", name, quote))
  );
}

/** Parses the whole lines of `buffer` from `start` to `end`; a line that does not parse is skipped. */
function parseLines(
  buffer: Buffer,
  start: number,
  end: number,
  entries: SessionStoreEntry[],
): void {
  let at = start;
  while (at < end) {
    let newline = buffer.indexOf(NEWLINE, at);
    if (newline < 0 || newline > end) newline = end;
    if (newline > at && !skipped(buffer, at, newline)) {
      try {
        const entry: unknown = JSON.parse(buffer.toString("utf8", at, newline));
        if (typeof entry === "object" && entry !== null && !Array.isArray(entry)) {
          entries.push(entry as SessionStoreEntry);
        }
      } catch {
        // As Claude Code does: a torn or foreign line is not part of the conversation.
      }
    }
    at = newline + 1;
  }
}

/**
 * Every entry of a transcript file, in file order. Lines are parsed where they lie in each
 * chunk; only a line split between chunks is copied, so the file is never copied whole.
 */
export async function readTranscriptEntries(file: string): Promise<SessionStoreEntry[]> {
  const entries: SessionStoreEntry[] = [];
  // The start of a line not yet whole (a long line may span chunks).
  let pending: Buffer[] = [];
  for await (const read of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    const chunk = read as Buffer;
    const first = chunk.indexOf(NEWLINE);
    if (first < 0) {
      pending.push(chunk);
      continue;
    }
    let start = 0;
    if (pending.length) {
      const line = Buffer.concat([...pending, chunk.subarray(0, first)]);
      parseLines(line, 0, line.length, entries);
      start = first + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    parseLines(chunk, start, last, entries);
    pending = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
  }
  if (pending.length) {
    const rest = Buffer.concat(pending);
    parseLines(rest, 0, rest.length, entries);
  }
  return entries;
}

/** A store that holds these entries, for the SDK's readers; it takes nothing in. */
export function entriesStore(entries: SessionStoreEntry[]): SessionStore {
  return {
    load: () => Promise.resolve(entries),
    append: () => Promise.reject(new Error("a transcript read for load takes no entries")),
  };
}
