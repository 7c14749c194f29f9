import type { Writable } from "node:stream";

/** Buffered output is written at once past this size, without waiting for the next tick. */
const FLUSH_BYTES = 256 * 1024;

/** Where the NDJSON transport writes its bytes. */
export interface ByteSink {
  /** Takes `bytes` in order; resolves once more may be written. */
  write(bytes: Uint8Array): Promise<void>;
}

/**
 * The byte stream under the NDJSON transport. Messages written in one tick of the event
 * loop go out in one write, and a write resolves when it is queued, not when the OS took
 * it: streaming many small updates then costs one syscall per batch, in order. When the
 * reader falls behind (the pipe is full), what is written waits for it to drain, and so
 * do the writers. A plain sink, not a WritableStream: a web stream's machinery per
 * message was a large part of the agent's CPU per streamed chunk.
 */
export function batchedWritable(out: Writable): ByteSink {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let scheduled = false;
  let draining: Promise<void> | undefined;

  const flush = (): void => {
    scheduled = false;
    if (draining || pending.length === 0) return;
    const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    if (out.write(data)) return;
    draining = new Promise((resolve) =>
      out.once("drain", () => {
        draining = undefined;
        resolve();
        flush();
      }),
    );
  };

  return {
    write(bytes) {
      pending.push(bytes);
      pendingBytes += bytes.byteLength;
      if (draining) return draining;
      if (pendingBytes >= FLUSH_BYTES) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return draining ?? Promise.resolve();
    },
  };
}
