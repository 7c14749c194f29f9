import { createHash } from "node:crypto";

/**
 * A plan approved with "clear context" continues in a new Claude conversation. Its id is
 * derived from the conversation before it (a name-based UUID, version 5), so that after
 * a restart session/load and resume of the ACP id find the latest conversation from the
 * saved transcripts alone: nothing else is written anywhere.
 */
const NAMESPACE = Buffer.from("5b1f3c52d8a64e0b9a7e2c4f6d8e0a13", "hex");

/** How many handoffs a chain is followed through: a bound, never reached in practice. */
export const MAX_CONTINUATIONS = 100;

/** The id of the conversation that continues `conversationId` after a clear-context handoff. */
export function continuationId(conversationId: string): string {
  const hash = createHash("sha1").update(NAMESPACE).update(conversationId).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The conversations of one ACP session, oldest first: `head` (the ACP id) and each saved
 * continuation after it.
 */
export async function conversationChain(
  head: string,
  saved: (conversationId: string) => Promise<boolean>,
): Promise<string[]> {
  const chain = [head];
  while (chain.length <= MAX_CONTINUATIONS) {
    const next = continuationId(chain.at(-1)!);
    if (!(await saved(next))) break;
    chain.push(next);
  }
  return chain;
}
