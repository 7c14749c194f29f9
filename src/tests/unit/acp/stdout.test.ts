import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { batchedWritable } from "../../../acp/stdout.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the batched stdout under the NDJSON transport", () => {
  it("writes what one tick produced in one write, in order", async () => {
    const writes: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString("utf8"));
        callback();
      },
    });
    const sink = batchedWritable(out);
    await Promise.all(["a\n", "b\n", "c\n"].map((line) => sink.write(bytes(line))));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["a\nb\nc\n"]);
  });

  it("waits for a full pipe to drain before taking more", async () => {
    const out = new PassThrough({ highWaterMark: 4 });
    const sink = batchedWritable(out);
    await sink.write(bytes("0123456789\n"));
    await new Promise((resolve) => setImmediate(resolve));
    let taken = false;
    const next = sink.write(bytes("more\n")).then(() => (taken = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toBe(false);
    // Reading drains the pipe: what waited goes out after what was there, in order.
    expect(String(out.read())).toBe("0123456789\nmore\n");
    await next;
    expect(taken).toBe(true);
  });
});
