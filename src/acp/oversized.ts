import {
  DEFAULT_MAX_MESSAGE_BYTES,
  RequestError,
  type AnyResponse,
  type ErrorResponse,
  type JsonRpcId,
} from "@agentclientprotocol/sdk";

/** The env variable that sets the largest message the agent reads, in bytes. */
export const MAX_MESSAGE_BYTES_VARIABLE = "CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES";
/** The message limit from the environment; unset or unusable: the ACP SDK's default (32 MiB). */
export function maxMessageBytes(env: NodeJS.ProcessEnv): number {
  const value = Number(env[MAX_MESSAGE_BYTES_VARIABLE]);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_MAX_MESSAGE_BYTES;
}

/** The answer to a request over the limit: an Invalid Request error, with its id when known. */
export function oversizedResponse(
  line: { byteLength: number; head: string; tail: string },
  limit: number,
): AnyResponse {
  const error = RequestError.invalidRequest(
    { byteLength: line.byteLength, maxMessageBytes: limit },
    `the message is ${line.byteLength} bytes, over the agent's limit of ${limit} bytes ` +
      `(${MAX_MESSAGE_BYTES_VARIABLE}); it was not read`,
  );
  return { jsonrpc: "2.0", id: oversizedId(line) ?? null, error: error.toErrorResponse() };
}

/**
 * The top-level `id` of an over-limit line. JSON.parse keeps the last of duplicate keys:
 * the member that ends the line, else the last one among its first bytes.
 */
export function oversizedId(line: { head: string; tail: string }): JsonRpcId | undefined {
  return idAtTheEnd(line.tail) ?? idAtTheStart(line.head);
}

/** Marks the error that stands for an answer the agent did not read. */
const UNREAD_ANSWER = "over-limit-answer";

/**
 * What the connection hears instead of a client's response over the limit: an error for
 * the request it answers, so that request fails instead of waiting forever. Never written
 * to the client: an error response answers a request, not a response.
 */
export function unreadAnswer(
  id: JsonRpcId,
  line: { byteLength: number },
  limit: number,
): AnyResponse & { error: ErrorResponse } {
  const error = RequestError.invalidRequest(
    { reason: UNREAD_ANSWER, byteLength: line.byteLength, maxMessageBytes: limit },
    `the client's answer is ${line.byteLength} bytes, over the agent's limit of ${limit} ` +
      `bytes (${MAX_MESSAGE_BYTES_VARIABLE}); it was not read`,
  );
  return { jsonrpc: "2.0", id, error: error.toErrorResponse() };
}

/** Whether a request failed because the client's answer to it was over the limit. */
export function isUnreadAnswer(error: unknown): boolean {
  if (!(error instanceof RequestError)) return false;
  const data: unknown = error.data;
  return typeof data === "object" && data !== null && "reason" in data
    ? data.reason === UNREAD_ANSWER
    : false;
}

// Sticky: matched where a key ends, without copying the rest of the text.
const COLON = /\s*:/y;
const ID_VALUE = /\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)/y;

function matchAt(pattern: RegExp, text: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index;
  return pattern.exec(text);
}

/**
 * The keys of a JSON object's top-level members seen in its first bytes, as JSON.parse
 * reads them (escapes decoded), each with where the text after it starts. A small scanner
 * that follows strings and nesting, so a key inside `params` is never taken for one.
 */
function* topLevelKeys(head: string): Generator<{ key: string; after: number }> {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const char = head[i];
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === '"') {
      const end = stringEnd(head, i);
      if (end === -1) return;
      if (depth === 1 && matchAt(COLON, head, end + 1)) {
        const key = jsonString(head.slice(i, end + 1));
        if (key !== undefined) yield { key, after: end + 1 };
      }
      i = end;
    }
  }
}

/** The top-level `id` of a JSON object read from its first bytes (the last one there). */
export function idAtTheStart(head: string): JsonRpcId | undefined {
  let id: JsonRpcId | undefined;
  for (const { key, after } of topLevelKeys(head)) {
    if (key !== "id") continue;
    const value = matchAt(ID_VALUE, head, after);
    const parsed = value ? parseId(value[1]!) : undefined;
    if (parsed !== undefined) id = parsed;
  }
  return id;
}

/**
 * Whether an over-limit line is a response (to one of the agent's requests): its first
 * bytes show a top-level `result` or `error` and no `method`. A line that shows neither
 * is taken for a request, as before.
 */
export function isResponseHead(head: string): boolean {
  let answers = false;
  for (const { key } of topLevelKeys(head)) {
    if (key === "method") return false;
    if (key === "result" || key === "error") answers = true;
  }
  return answers;
}

/** The top-level `id` when it is the object's last member (`…,"id":7}`). */
export function idAtTheEnd(tail: string): JsonRpcId | undefined {
  const match =
    /[,{]\s*("(?:[^"\\]|\\.)*")\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)\s*\}\s*$/.exec(
      tail,
    );
  return match && jsonString(match[1]!) === "id" ? parseId(match[2]!) : undefined;
}

/** The index of the quote closing the string opened at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** A JSON string literal as JSON.parse reads it, or undefined when it refuses it. */
function jsonString(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseId(text: string): JsonRpcId | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" || typeof value === "number" || value === null
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}
