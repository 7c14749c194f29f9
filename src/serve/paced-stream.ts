import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { mergingChunks } from "../acp/chunk-merge.js";
import { nextTurn } from "../util/next-turn.js";

/**
 * A network connection's stream, paced as the stdio one is (acp/stdio-transport.ts): each
 * client message is handed on in its own turn of the event loop, so a `session/cancel`
 * reaches its handler before a `session/prompt` sent after it; and text chunks that
 * continue each other within one turn go as one message.
 */
export function pacedStream(stream: Stream): Stream {
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      async transform(message, controller) {
        controller.enqueue(message);
        await nextTurn();
      },
    }),
  );
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<AnyMessage>({
    write: mergingChunks((message) => writer.write(message)),
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable, writable };
}
