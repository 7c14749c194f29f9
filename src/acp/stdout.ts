import type { Writable } from "node:stream";

/** Buffered output is written at once past this size, without waiting for the next tick. */
const FLUSH_BYTES = 256 * 1024;

/**
 * The byte stream under the NDJSON transport. Messages written in one tick of the event
 * loop go out in one write, and a write resolves when it is queued, not when the OS took
 * it: streaming many small updates then costs one syscall per batch, in order. When the
 * reader falls behind (the pipe is full), writes wait for it to drain.
 */
export function batchedWritable(out: Writable): WritableStream<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let scheduled = false;
  let drained: Promise<void> = Promise.resolve();

  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    if (!out.write(data)) drained = new Promise((resolve) => out.once("drain", resolve));
  };

  return new WritableStream<Uint8Array>({
    async write(chunk) {
      await drained;
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= FLUSH_BYTES) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    close() {
      flush();
    },
    abort() {
      flush();
    },
  });
}
