import { RequestError, type AnyMessage, type Stream } from "@agentclientprotocol/sdk";
import { log } from "../logger.js";
import { mergingChunks } from "./chunk-merge.js";
import { LineFilter } from "./line-filter.js";
import { isResponseHead, oversizedId, oversizedResponse, unreadAnswer } from "./oversized.js";
import type { ByteSink } from "./stdout.js";
import { nextTurn } from "../util/next-turn.js";

/**
 * ACP over newline-delimited JSON, as the ACP SDK's `ndJsonStream`, with three differences:
 *
 * - a line over `maxMessageBytes` is skipped (the SDK's stream fails on it, which ends the
 *   connection and every session with it): a request is answered with an error; a response
 *   makes the request it answers fail (oversized.ts `unreadAnswer`), and nothing is written;
 * - each message is handed on in its own turn of the event loop, so the connection has
 *   started the handlers of the messages before it when the next one is read. The SDK
 *   dispatches messages concurrently, and a handler's start depends on its place in the
 *   handler chain: without this, a `session/cancel` followed by a `session/prompt` in one
 *   write reaches its handler after the prompt's and cancels a prompt sent after it;
 * - text chunks that continue each other within one turn of the event loop go as one
 *   (chunk-merge.ts).
 */
export function stdioStream(
  output: ByteSink,
  input: ReadableStream<Uint8Array>,
  maxMessageBytes: number,
): Stream {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let cancelled = false;

  const writeJson = (message: AnyMessage): Promise<void> => {
    const bytes = encoder.encode(`${JSON.stringify(message)}\n`);
    return output.write(bytes);
  };
  const writeError = (error: RequestError): Promise<void> =>
    writeJson({ jsonrpc: "2.0", id: null, error: error.toErrorResponse() });

  const readable = new ReadableStream<AnyMessage>({
    async start(controller) {
      const lines = new LineFilter(maxMessageBytes);
      const handOn = async (line: ReturnType<LineFilter["flush"]>): Promise<void> => {
        if (!line) return;
        if (line.kind === "oversized" && isResponseHead(line.head)) {
          // An answer to one of our requests: the request fails, the client hears nothing.
          const id = oversizedId(line) ?? null;
          log.warn(
            `skipped the client's answer to request ${JSON.stringify(id)}: ${line.byteLength} bytes ` +
              `(limit ${maxMessageBytes})`,
          );
          if (id === null) return;
          controller.enqueue(unreadAnswer(id, line, maxMessageBytes));
          await nextTurn();
          return;
        }
        if (line.kind === "oversized") {
          log.warn(`skipped a message of ${line.byteLength} bytes (limit ${maxMessageBytes})`);
          await writeJson(oversizedResponse(line, maxMessageBytes));
          return;
        }
        const text = decoder.decode(line.bytes).trim();
        if (!text) return;
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          await writeError(RequestError.parseError());
          return;
        }
        if (Array.isArray(message)) {
          await writeError(
            RequestError.invalidRequest(undefined, "JSON-RPC batches are not supported"),
          );
        } else if (typeof message === "object" && message !== null) {
          controller.enqueue(message as AnyMessage);
          await nextTurn();
        } else {
          await writeError(RequestError.invalidRequest(message));
        }
      };
      reader = input.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (cancelled) return;
          if (done) break;
          for (const line of lines.push(value)) {
            await handOn(line);
            if (cancelled) return;
          }
        }
        await handOn(lines.flush());
        controller.close();
      } catch (error) {
        if (!cancelled) controller.error(error);
      } finally {
        reader.releaseLock();
        reader = undefined;
      }
    },
    cancel(reason) {
      cancelled = true;
      return reader?.cancel(reason);
    },
  });

  const writable = new WritableStream<AnyMessage>({ write: mergingChunks(writeJson) });
  return { readable, writable };
}

/**
 * The stream, and a way to end it from our side (SIGTERM, a client that closed our stdout):
 * the connection reading it then closes, whichever protocol app the router gave it to.
 */
export function closableStream(stream: Stream): { stream: Stream; close: () => void } {
  const ends = new AbortController();
  const readable = stream.readable.pipeThrough(new TransformStream<AnyMessage, AnyMessage>(), {
    signal: ends.signal,
  });
  return {
    stream: { readable, writable: stream.writable },
    close: () => ends.abort(new Error("the agent is shutting down")),
  };
}
