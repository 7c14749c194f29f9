// A transcript's entries for session/load, read as they stream in from disk: each line is
// parsed once, while the next chunk is read. The conversation is then taken from them by the
// SDK's own rules (its getSessionMessages over a store that holds these entries), so the SDK
// neither reads the file again nor copies it whole first, and the chain is Claude Code's.
// What that chain never reads is not parsed: records without a place in it, and the content
// of attachments (see leanAttachment).
import { createReadStream } from "node:fs";
import type { SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { isRecord } from "../util/records.js";

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
const BACKSLASH = 0x5c;
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

/**
 * Attachments whose content the SDK's chain reads: a queued command becomes the user's
 * message. Of every other attachment it reads the type and the links (uuid, parent,
 * sidechain, time), and Claude Code writes several on each turn (the prompt's snapshot
 * alone is a fifth of a long transcript).
 */
const READ_WHOLE_ATTACHMENTS = new Set(["queued_command"]);
/** Where Claude Code writes an attachment's value: a key of the entry, near its start. */
const ATTACHMENT_KEY = Buffer.from('"attachment":{"type":"');
const ATTACHMENT_KEY_WITHIN = 256;
/** What follows the value: the entry's own type and uuid. */
const ATTACHMENT_END = Buffer.from('},"type":"attachment","uuid":"');
const ATTACHMENT_TYPE = /^[a-z_]{1,64}$/;

/**
 * Where the JSON value that starts at `at` (an object or an array) ends, past its closing
 * bracket; -1 when it does not end before `end`. Strings are skipped whole (a quote preceded
 * by an odd number of backslashes is inside one), so only the brackets outside them count.
 */
function valueEnd(buffer: Buffer, at: number, end: number): number {
  let depth = 0;
  for (let i = at; i < end; i++) {
    const byte = buffer[i];
    if (byte === QUOTE) {
      let close = buffer.indexOf(QUOTE, i + 1);
      for (;;) {
        if (close < 0 || close >= end) return -1;
        let slash = close - 1;
        while (buffer[slash] === BACKSLASH) slash--;
        if ((close - 1 - slash) % 2 === 0) break;
        close = buffer.indexOf(QUOTE, close + 1);
      }
      i = close;
    } else if (byte === 0x7b || byte === 0x5b) {
      depth++;
    } else if ((byte === 0x7d || byte === 0x5d) && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}

/**
 * An attachment entry with its value cut down to `{type}`, parsed without the rest of the
 * value; undefined when the line is not one in Claude Code's layout, which is then parsed
 * whole. The cut runs from the line's first `"attachment":{"type":"` to its last
 * `},"type":"attachment","uuid":"`, and is taken only when that is exactly the value (its
 * brackets, strings skipped, close there: another key between the value and the entry's type
 * would be cut too), the line still parses, and the entry's own attachment is then the
 * `{type}` put in (the value was not one nested deeper).
 */
function leanAttachment(buffer: Buffer, start: number, end: number): unknown {
  const head = buffer.subarray(start, Math.min(end, start + ATTACHMENT_KEY_WITHIN));
  const key = head.indexOf(ATTACHMENT_KEY);
  if (key < 0) return undefined;
  const name = start + key + ATTACHMENT_KEY.length;
  const quote = buffer.indexOf(QUOTE, name);
  if (quote < 0 || quote >= end) return undefined;
  const type = buffer.toString("latin1", name, quote);
  if (!ATTACHMENT_TYPE.test(type) || READ_WHOLE_ATTACHMENTS.has(type)) return undefined;
  const close = buffer.lastIndexOf(ATTACHMENT_END, end - ATTACHMENT_END.length);
  if (close < quote) return undefined;
  const value = start + key + '"attachment":'.length;
  if (valueEnd(buffer, value, close + 1) !== close + 1) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(
      `${buffer.toString("utf8", start, value)}{"type":"${type}"}${buffer.toString("utf8", close + 1, end)}`,
    );
  } catch {
    return undefined;
  }
  const own = isRecord(entry) && entry.type === "attachment" ? entry.attachment : undefined;
  return isRecord(own) && Object.keys(own).length === 1 && own.type === type ? entry : undefined;
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
        const entry: unknown =
          leanAttachment(buffer, at, newline) ?? JSON.parse(buffer.toString("utf8", at, newline));
        if (isRecord(entry)) {
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
