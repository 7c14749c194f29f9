import type { AnyMessage } from "@agentclientprotocol/sdk";
import { log } from "../logger.js";

/** The update kinds whose text a client appends as it comes: consecutive pieces can be one. */
const MERGEABLE = new Set(["agent_message_chunk", "agent_thought_chunk"]);

/** A v1 text chunk as it goes on the wire, and what must match for two to be one. */
interface TextChunk {
  sessionId: string;
  update: {
    sessionUpdate: string;
    content: { type: "text"; text: string };
    messageId?: string;
    _meta?: unknown;
  };
}

function textChunk(message: AnyMessage): TextChunk | undefined {
  if (!("method" in message) || message.method !== "session/update" || "id" in message) {
    return undefined;
  }
  const params = message.params as Partial<TextChunk> | undefined;
  const update = params?.update;
  if (typeof params?.sessionId !== "string" || !update || !MERGEABLE.has(update.sessionUpdate)) {
    return undefined;
  }
  const content = update.content as Record<string, unknown> | undefined;
  // Only bare text: annotations or other fields would have to agree too.
  if (content?.type !== "text" || typeof content.text !== "string") return undefined;
  if (Object.keys(content).length !== 2) return undefined;
  const keys = Object.keys(update).filter((k) => k !== "_meta" && k !== "messageId");
  if (keys.length !== 2) return undefined;
  return params as TextChunk;
}

function continues(next: TextChunk, last: TextChunk): boolean {
  return (
    next.sessionId === last.sessionId &&
    next.update.sessionUpdate === last.update.sessionUpdate &&
    next.update.messageId === last.update.messageId &&
    (next.update._meta === last.update._meta ||
      JSON.stringify(next.update._meta) === JSON.stringify(last.update._meta))
  );
}

/**
 * What goes to the client, with the text chunks written in one turn of the event loop
 * that continue each other (one session, kind, message and `_meta`) sent as one: a
 * client appends them all the same, and Claude Code's deltas often come many to a read,
 * each of which would otherwise cost a message to encode, write, parse and validate.
 * Order is kept: anything else first sends the chunk held. Nothing is held past the turn
 * of the event loop it was written in.
 */
export function mergingChunks(
  write: (message: AnyMessage) => Promise<void>,
): (message: AnyMessage) => Promise<void> {
  let held: { chunk: TextChunk; message: AnyMessage; texts: string[] } | undefined;
  let scheduled = false;
  let written: Promise<void> = Promise.resolve();

  const release = (): Promise<void> => {
    const last = held;
    held = undefined;
    if (!last) return written;
    const message =
      last.texts.length === 1
        ? last.message
        : ({
            ...last.message,
            params: {
              ...last.chunk,
              update: {
                ...last.chunk.update,
                content: { type: "text", text: last.texts.join("") },
              },
            },
          } as AnyMessage);
    written = write(message);
    return written;
  };

  const releaseLater = (): void => {
    scheduled = false;
    try {
      // A failed write fails the stream; the writes after it see that.
      release().catch(() => undefined);
    } catch (error) {
      // Not in a writer's call: nothing else would hear of it.
      log.error("could not send a text chunk", error);
    }
  };

  return (message) => {
    const chunk = textChunk(message);
    if (held && chunk && continues(chunk, held.chunk)) {
      held.texts.push(chunk.update.content.text);
      return written;
    }
    const before = release();
    if (!chunk) return write(message);
    held = { chunk, message, texts: [chunk.update.content.text] };
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseLater);
    }
    return before;
  };
}
