// Reads what the installed Claude Code binary's own JavaScript says, for tests that must fail
// when an upgrade changes behaviour the agent depends on. The binary embeds its bundled
// source as text; patterns are anchored on the code's shape, not on minified names.
import { open } from "node:fs/promises";
import { resolveClaudeExecutable } from "../../claude/executable.js";

const CHUNK_BYTES = 8 * 1024 * 1024;
/** Kept from one chunk for the next, so a match across their border is found. */
const OVERLAP_BYTES = 64 * 1024;

/**
 * A pattern, with a text each of its matches holds: a chunk of the binary without that text is
 * not searched. Most of the binary is machine code, where a pattern that begins with a class
 * (an identifier) is tried at every letter: the text skips those chunks.
 */
export interface CliPattern {
  regex: RegExp;
  holds: string;
}

type Pattern = RegExp | CliPattern;

/**
 * The distinct texts matching each of `patterns` in the binary (each match's first group,
 * else the whole match), read as UTF-8.
 */
export async function scanClaudeCli(
  patterns: readonly Pattern[],
  binary: string = resolveClaudeExecutable(),
): Promise<string[][]> {
  const found = await scanClaudeCliAt(patterns, binary);
  return found.map((matches) => [...new Set(matches.map((m) => m.text))]);
}

/** One match in the binary: its text (as scanClaudeCli takes it) and where it ends. */
export interface CliMatch {
  text: string;
  end: number;
}

/** Every match of each of `patterns` in the binary, with its place (a match is found once). */
export async function scanClaudeCliAt(
  patterns: readonly Pattern[],
  binary: string = resolveClaudeExecutable(),
): Promise<CliMatch[][]> {
  const found = patterns.map(() => new Map<number, string>());
  const file = await open(binary, "r");
  try {
    const size = (await file.stat()).size;
    const buffer = Buffer.alloc(OVERLAP_BYTES + CHUNK_BYTES);
    let kept = 0;
    for (let position = 0; position < size;) {
      const { bytesRead } = await file.read(buffer, kept, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const total = kept + bytesRead;
      const start = position - total; // the file offset of the buffer's first byte
      // A match that starts in the part kept for the next chunk is taken there, whole.
      const next = position < size ? total - Math.min(OVERLAP_BYTES, total) : total;
      // latin1 maps each byte to one character, so a match can be taken back as UTF-8 bytes.
      const text = buffer.toString("latin1", 0, total);
      patterns.forEach((pattern, i) => {
        const { regex, holds } = pattern instanceof RegExp ? { regex: pattern } : pattern;
        if (holds !== undefined && !text.includes(holds)) return;
        for (const match of text.matchAll(new RegExp(regex.source, "g"))) {
          if (match.index >= next) break;
          const end = start + match.index + match[0].length;
          found[i]!.set(end, Buffer.from(match[1] ?? match[0], "latin1").toString("utf8"));
        }
      });
      kept = total - next;
      buffer.copy(buffer, 0, next, total);
    }
  } finally {
    await file.close();
  }
  return found.map((matches) => [...matches].map(([end, text]) => ({ text, end })));
}

/** The binary's bytes from `offset`, at most `length` of them, as latin1 text. */
export async function readClaudeCli(
  offset: number,
  length: number,
  binary: string = resolveClaudeExecutable(),
): Promise<string> {
  const file = await open(binary, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, offset);
    return buffer.toString("latin1", 0, bytesRead);
  } finally {
    await file.close();
  }
}

/** The value of a JavaScript string literal's body (`\u3002`, `\x41` or the character itself). */
export function stringLiteral(body: string): string {
  return JSON.parse(`"${body.replace(/\\x([0-9a-fA-F]{2})/g, "\\u00$1")}"`) as string;
}
