import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { log } from "../logger.js";

/** The shortest token a token file may hold: shorter ones are guessable. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * The bearer token every request and upgrade must carry: the first line of `file`, or,
 * without a file, a new random one (printed once at start, never logged again).
 */
export async function serverToken(file: string | undefined): Promise<string> {
  if (file === undefined) return randomBytes(32).toString("base64url");
  const text = await readFile(file, "utf8");
  const token = text.split(/\r?\n/, 1)[0]!.trim();
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new Error(
      `the token file's first line must hold at least ${MIN_TOKEN_LENGTH} characters`,
    );
  }
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new Error("the token file's first line must be printable ASCII without spaces");
  }
  if (((await stat(file)).mode & 0o077) !== 0) {
    log.warn(`the token file can be read by other users of this machine: chmod 600 ${file}`);
  }
  return token;
}

/**
 * Whether an `Authorization` header carries the token, compared in constant time: both
 * sides are hashed first, so neither the length nor a prefix of the token shows in timing.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  const given = digest(match?.[1] ?? "");
  return timingSafeEqual(given, digest(token)) && match !== null;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
