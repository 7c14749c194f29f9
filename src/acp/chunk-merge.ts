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

/** The notification's params, if they are a text chunk that can merge with another. */
function textChunk(params: unknown): TextChunk | undefined {
  const chunk = params as Partial<TextChunk> | undefined;
  const update = chunk?.update;
  if (typeof chunk?.sessionId !== "string" || !update || !MERGEABLE.has(update.sessionUpdate)) {
    return undefined;
  }
  // Only a session id and an update: a notification's own `_meta` would have to agree too.
  if (Object.keys(chunk).length !== 2) return undefined;
  const content = update.content as Record<string, unknown> | undefined;
  // Only bare text: annotations or other fields would have to agree too.
  if (content?.type !== "text" || typeof content.text !== "string") return undefined;
  if (Object.keys(content).length !== 2) return undefined;
  const keys = Object.keys(update).filter((k) => k !== "_meta" && k !== "messageId");
  if (keys.length !== 2) return undefined;
  return chunk as TextChunk;
}

/** A `session/update` notification on the wire (no id: not a request). */
function wireChunk(message: AnyMessage): TextChunk | undefined {
  if (!("method" in message) || message.method !== "session/update" || "id" in message) {
    return undefined;
  }
  return textChunk(message.params);
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

/** The first chunk with the text of all. */
function joined(first: TextChunk, texts: string[]): TextChunk {
  return {
    ...first,
    update: { ...first.update, content: { type: "text", text: texts.join("") } },
  };
}

/** Sends in order, merging text chunks; `flush` sends the chunk held at once. */
export interface MergingSender<M> {
  send(message: M): Promise<void>;
  flush(): Promise<void>;
}

/**
 * What goes to the client, with the text chunks written in one turn of the event loop
 * that continue each other (one session, kind, message and `_meta`) sent as one: a
 * client appends them all the same, and Claude Code's deltas often come many to a read,
 * each of which would otherwise cost a message to encode, write, parse and validate.
 * Order is kept: anything else first sends the chunk held. Nothing is held past the turn
 * of the event loop it was written in. A send resolves once what it follows was written.
 */
function merging<M>(
  write: (message: M) => Promise<void>,
  chunkOf: (message: M) => TextChunk | undefined,
  withChunk: (message: M, chunk: TextChunk) => M,
): MergingSender<M> {
  let held: { chunk: TextChunk; message: M; texts: string[] } | undefined;
  let scheduled = false;
  let written: Promise<void> = Promise.resolve();

  const release = (): Promise<void> => {
    const last = held;
    held = undefined;
    if (!last) return written;
    written = write(
      last.texts.length === 1
        ? last.message
        : withChunk(last.message, joined(last.chunk, last.texts)),
    );
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

  return {
    send(message) {
      const chunk = chunkOf(message);
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
    },
    flush: release,
  };
}

/** The transport's messages (JSON-RPC on the wire), merged as `merging` says. */
export function mergingChunks(
  write: (message: AnyMessage) => Promise<void>,
): (message: AnyMessage) => Promise<void> {
  const sender = merging(write, wireChunk, (message, chunk) => ({ ...message, params: chunk }));
  return (message) => sender.send(message);
}

/**
 * A connection's `session/update` params, merged as `merging` says before the ACP SDK
 * sends them: the SDK's cost is per message (a writer taken and released on the stream,
 * a queue of promises), so text chunks merged after it still cost it once per delta.
 */
export function mergingUpdates<N extends { sessionId: string }>(
  write: (notification: N) => Promise<void>,
): MergingSender<N> {
  return merging(write, textChunk, (_, chunk) => chunk as unknown as N);
}
