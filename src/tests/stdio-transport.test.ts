import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { KEPT_EDGE_BYTES, LineFilter, type FilteredLine } from "../acp/line-filter.js";
import { idAtTheEnd, idAtTheStart, maxMessageBytes, oversizedResponse } from "../acp/oversized.js";
import { stdioStream } from "../acp/stdio-transport.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const decode = (line: FilteredLine) =>
  line.kind === "line" ? new TextDecoder().decode(line.bytes) : line;

function lines(filter: LineFilter, ...chunks: string[]): Array<string | FilteredLine> {
  return chunks.flatMap((chunk) => [...filter.push(bytes(chunk))].map(decode));
}

describe("the line filter", () => {
  it("splits LF and CRLF lines across chunks, and keeps the last line for flush", () => {
    const filter = new LineFilter(100);
    expect(lines(filter, "ab", "c\r\nd\n\nef")).toEqual(["abc", "d", ""]);
    expect(decode(filter.flush()!)).toBe("ef");
    expect(filter.flush()).toBeUndefined();
  });

  it("passes a line of exactly the limit (its CR not counted), and not one byte more", () => {
    const filter = new LineFilter(4);
    expect(lines(filter, "abcd\r\n", "abcd\n")).toEqual(["abcd", "abcd"]);
    expect(lines(filter, "abcde\n")).toEqual([
      { kind: "oversized", byteLength: 5, head: "abcde", tail: "abcde" },
    ]);
  });

  it("reports an oversized line with its length and edges only, and goes on with the next line", () => {
    const filter = new LineFilter(10_000);
    const big = `{"id":7,"x":"${"a".repeat(50_000)}","end":true}`;
    const chunks = [big.slice(0, 3_000), big.slice(3_000, 40_000), `${big.slice(40_000)}\nnext\n`];
    const out = lines(filter, ...chunks);
    expect(out).toHaveLength(2);
    const oversized = out[0] as Extract<FilteredLine, { kind: "oversized" }>;
    expect(oversized.kind).toBe("oversized");
    expect(oversized.byteLength).toBe(big.length);
    expect(oversized.head).toBe(big.slice(0, KEPT_EDGE_BYTES));
    expect(oversized.tail).toBe(big.slice(-KEPT_EDGE_BYTES));
    expect(out[1]).toBe("next");
  });

  it("reports an oversized last line without a newline at flush", () => {
    const filter = new LineFilter(3);
    expect(lines(filter, "abcdef")).toEqual([]);
    expect(filter.flush()).toMatchObject({ kind: "oversized", byteLength: 6 });
  });
});

describe("the id of an oversized request", () => {
  it.each([
    ['{"jsonrpc":"2.0","id":42,"method":"session/prompt","params":{', 42],
    ['{ "id" : "abc-1", "method": "x"', "abc-1"],
    ['{"jsonrpc":"2.0","id":null,', null],
    ['{"method":"session/prompt","params":{"sessionId":"s","id":9,"prompt":[', undefined],
    ['{"params":{"text":"\\"id\\":5"},"id":6,', 6],
    ['{"jsonrpc":"2.0","method":"session/prompt","params":{"prompt":[{"text":"aaa', undefined],
  ])("is read from the start of %s", (head, id) => {
    expect(idAtTheStart(head)).toBe(id);
  });

  it.each([
    ['"x"}]},"id":17}', 17],
    ['aa"}]},"id":"req-3"}\n', "req-3"],
    ['"x"}]}, "id" : 8 }', 8],
    ['"id":5}}', undefined],
    ['aaa\\",\\"id\\":5}"}', undefined],
  ])("is read from the end of %s", (tail, id) => {
    expect(idAtTheEnd(tail)).toBe(id);
  });

  it("answers with -32600, the recovered id, and the limit; id null when none is found", () => {
    expect(oversizedResponse({ byteLength: 20, head: '{"id":3,', tail: "}" }, 10)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32600,
        message: expect.stringContaining("CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES") as string,
        data: { byteLength: 20, maxMessageBytes: 10 },
      },
    });
    expect(oversizedResponse({ byteLength: 20, head: "{", tail: "}" }, 10).id).toBeNull();
  });

  it("takes its limit from CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES, 32 MiB by default", () => {
    expect(maxMessageBytes({})).toBe(32 * 1024 * 1024);
    expect(maxMessageBytes({ CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES: "1048576" })).toBe(1_048_576);
    expect(maxMessageBytes({ CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES: "-1" })).toBe(32 * 1024 * 1024);
  });
});

describe("the stdio transport", () => {
  function connect(limit: number) {
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const input = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
    const written: string[] = [];
    const output = {
      write: (chunk: Uint8Array) => {
        written.push(new TextDecoder().decode(chunk));
        return Promise.resolve();
      },
    };
    const stream = stdioStream(output, input, limit);
    return { feed, written, reader: stream.readable.getReader() };
  }

  it("answers an oversized message with an error and hands on the next one", async () => {
    const { feed, written, reader } = connect(64);
    feed.enqueue(
      bytes(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":"${"a".repeat(100)}"}}\n`),
    );
    feed.enqueue(bytes(`{"jsonrpc":"2.0","id":2,"method":"m"}\n`));
    feed.close();

    const next = await reader.read();
    expect(next.value).toEqual({ jsonrpc: "2.0", id: 2, method: "m" });
    expect(written.map((line) => JSON.parse(line) as AnyMessage)).toEqual([
      expect.objectContaining({
        id: 1,
        error: expect.objectContaining({ code: -32600 }) as object,
      }),
    ]);
    expect((await reader.read()).done).toBe(true);
  });

  it("answers a parse error and a batch with id null, as the SDK's stream does", async () => {
    const { feed, written, reader } = connect(1_000);
    feed.enqueue(bytes(`{not json\n[1]\n`));
    feed.close();
    expect((await reader.read()).done).toBe(true);
    expect(written.map((line) => JSON.parse(line) as AnyMessage)).toEqual([
      expect.objectContaining({
        id: null,
        error: expect.objectContaining({ code: -32700 }) as object,
      }),
      expect.objectContaining({
        id: null,
        error: expect.objectContaining({ code: -32600 }) as object,
      }),
    ]);
  });

  it("hands messages of one chunk on one event-loop turn apart, so each handler starts in arrival order", async () => {
    const { feed, reader } = connect(1_000);
    feed.enqueue(bytes(`{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n`));
    const first = await reader.read();
    let secondArrived = false;
    const second = reader.read().then((r) => ((secondArrived = true), r));
    // A chain of microtasks (as the SDK's handler chain is) finishes before the next message.
    for (let i = 0; i < 1_000; i++) await Promise.resolve();
    expect(first.value).toMatchObject({ method: "a" });
    expect(secondArrived).toBe(false);
    expect((await second).value).toMatchObject({ method: "b" });
  });
});
