// Reads what the installed Claude Code binary's own JavaScript says, for tests that must fail
// when an upgrade changes behaviour the agent depends on. The binary embeds its bundled
// source as text; patterns are anchored on the code's shape, not on minified names.
import { open } from "node:fs/promises";
import { resolveClaudeExecutable } from "../../claude/executable.js";

const CHUNK_BYTES = 8 * 1024 * 1024;
/** Kept from one chunk for the next, so a match across their border is found. */
const OVERLAP_BYTES = 64 * 1024;

/**
 * The distinct texts matching each of `patterns` in the binary (each match's first group,
 * else the whole match), read as UTF-8.
 */
export async function scanClaudeCli(
  patterns: readonly RegExp[],
  binary: string = resolveClaudeExecutable(),
): Promise<string[][]> {
  const found = patterns.map(() => new Set<string>());
  const file = await open(binary, "r");
  try {
    const buffer = Buffer.alloc(OVERLAP_BYTES + CHUNK_BYTES);
    let kept = 0;
    for (let position = 0; ;) {
      const { bytesRead } = await file.read(buffer, kept, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const total = kept + bytesRead;
      // latin1 maps each byte to one character, so a match can be taken back as UTF-8 bytes.
      const text = buffer.toString("latin1", 0, total);
      patterns.forEach((pattern, i) => {
        for (const match of text.matchAll(new RegExp(pattern.source, "g"))) {
          found[i]!.add(Buffer.from(match[1] ?? match[0], "latin1").toString("utf8"));
        }
      });
      kept = Math.min(OVERLAP_BYTES, total);
      buffer.copy(buffer, 0, total - kept, total);
    }
  } finally {
    await file.close();
  }
  return found.map((texts) => [...texts]);
}

/** The value of a JavaScript string literal's body (`\u3002`, `\x41` or the character itself). */
export function stringLiteral(body: string): string {
  return JSON.parse(`"${body.replace(/\\x([0-9a-fA-F]{2})/g, "\\u00$1")}"`) as string;
}
