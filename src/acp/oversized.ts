import {
  DEFAULT_MAX_MESSAGE_BYTES,
  RequestError,
  type AnyResponse,
  type JsonRpcId,
} from "@agentclientprotocol/sdk";

/** The env variable that sets the largest message the agent reads, in bytes. */
export const MAX_MESSAGE_BYTES_VARIABLE = "CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES";
/** The message limit from the environment; unset or unusable: the ACP SDK's default (32 MiB). */
export function maxMessageBytes(env: NodeJS.ProcessEnv): number {
  const value = Number(env[MAX_MESSAGE_BYTES_VARIABLE]);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_MAX_MESSAGE_BYTES;
}

/** The answer to a line over the limit: an Invalid Request error, with its id when known. */
export function oversizedResponse(
  line: { byteLength: number; head: string; tail: string },
  limit: number,
): AnyResponse {
  const error = RequestError.invalidRequest(
    { byteLength: line.byteLength, maxMessageBytes: limit },
    `the message is ${line.byteLength} bytes, over the agent's limit of ${limit} bytes ` +
      `(${MAX_MESSAGE_BYTES_VARIABLE}); it was not read`,
  );
  return {
    jsonrpc: "2.0",
    id: idAtTheStart(line.head) ?? idAtTheEnd(line.tail) ?? null,
    error: error.toErrorResponse(),
  };
}

const ID_VALUE = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)/;

/**
 * The top-level `id` of a JSON object read from its first bytes: a small scanner that
 * follows strings and nesting, so an `id` inside `params` is never taken for it.
 */
export function idAtTheStart(head: string): JsonRpcId | undefined {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const char = head[i];
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === '"') {
      const end = stringEnd(head, i);
      if (end === -1) return undefined;
      const isKey = depth === 1 && head.slice(i, end + 1) === '"id"';
      if (isKey) {
        const value = ID_VALUE.exec(head.slice(end + 1));
        if (value) return parseId(value[1]!);
      }
      i = end;
    }
  }
  return undefined;
}

/** The top-level `id` when it is the object's last member (`…,"id":7}`). */
export function idAtTheEnd(tail: string): JsonRpcId | undefined {
  const match =
    /[,{]\s*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)\s*\}\s*$/.exec(
      tail,
    );
  return match ? parseId(match[1]!) : undefined;
}

/** The index of the quote closing the string opened at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
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
