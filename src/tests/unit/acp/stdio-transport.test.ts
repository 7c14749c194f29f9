import { RequestError, type AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { KEPT_EDGE_BYTES, LineFilter, type FilteredLine } from "../../../acp/line-filter.js";
import {
  idAtTheEnd,
  idAtTheStart,
  isResponseHead,
  isUnreadAnswer,
  maxMessageBytes,
  oversizedResponse,
  unreadAnswer,
} from "../../../acp/oversized.js";
import { stdioStream } from "../../../acp/stdio-transport.js";

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

  // Keys and values written with JSON escapes are read as JSON.parse reads them.
  it.each([
    '{"jsonrpc":"2.0","i\\u0064":42,"method":"session/prompt","params":{}}',
    '{"\\u0069\\u0064":"abc-1","method":"x"}',
    '{"\\u0069d" : null,"method":"x"}',
    '{"id":"r\\u002d\\"7\\"","method":"x"}',
    '{"method":"x","params":{"\\u0069\\u0064":9},"more":[]}',
    '{"i\\\\d":5,"method":"x"}',
    '{"id":1,"method":"x","id":2,"params":{}}',
  ])("is read from the start of %s as JSON.parse reads it", (line) => {
    expect(idAtTheStart(line)).toBe((JSON.parse(line) as { id?: unknown }).id);
  });

  it("is not read from a key JSON.parse would refuse", () => {
    expect(idAtTheStart('{"\\x69d":5,"method":"x"')).toBeUndefined();
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

  it.each([
    ['"x"}]},"i\\u0064":17}', 17],
    ['"x"}]},"\\u0069\\u0064":"req\\u002d3"}', "req-3"],
    ['"x"}]},"i\\\\d":17}', undefined],
  ])("is read from the end of %s, escapes decoded", (tail, id) => {
    expect(idAtTheEnd(tail)).toBe(id);
  });

  it("answers an oversized request whose id is written with escapes with that id, not null", () => {
    const head =
      '{"jsonrpc":"2.0","\\u0069\\u0064":"p-\\u0031","method":"session/prompt","params":{"a":"';
    expect(oversizedResponse({ byteLength: 20, head, tail: 'aaa"}}' }, 10).id).toBe("p-1");
    const tail = 'aaa"}},"i\\u0064":31}';
    expect(
      oversizedResponse({ byteLength: 20, head: '{"method":"m","params":{', tail }, 10).id,
    ).toBe(31);
  });

  it("the last id wins, as in JSON.parse: the one ending the line before one at its start", () => {
    const line = {
      byteLength: 20,
      head: '{"id":1,"method":"m","params":{"a":"',
      tail: 'a"},"id":2}',
    };
    expect(oversizedResponse(line, 10).id).toBe(2);
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

  it.each([
    ['{"jsonrpc":"2.0","id":0,"result":{"outcome":', true],
    ['{"jsonrpc":"2.0","id":0,"error":{"code":1,', true],
    ['{"jsonrpc":"2.0","\\u0069d":0,"r\\u0065sult":{', true],
    ['{"result":{"a":"', true],
    ['{"jsonrpc":"2.0","id":1,"method":"m","result":{', false],
    ['{"jsonrpc":"2.0","id":1,"m\\u0065thod":"m","error":{', false],
    ['{"jsonrpc":"2.0","id":1,"params":{"result":{', false],
    ['{"jsonrpc":"2.0","id":1,"x":"\\"result\\":1","params":{', false],
    ['{"jsonrpc":"2.0","id":1,', false],
  ])("%s is a response: %s", (head, response) => {
    expect(isResponseHead(head)).toBe(response);
  });

  it("an over-limit answer becomes an error the request it answers fails with, recognisable as unread", () => {
    const answer = unreadAnswer(7, { byteLength: 20 }, 10);
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32600 } });
    const { code, message, data } = answer.error;
    expect(message).toMatch(/20 bytes, over the agent's limit of 10 bytes/);
    expect(isUnreadAnswer(new RequestError(code, message, data))).toBe(true);
    expect(
      isUnreadAnswer(RequestError.invalidRequest({ byteLength: 20, maxMessageBytes: 10 })),
    ).toBe(false);
    expect(isUnreadAnswer(RequestError.internalError())).toBe(false);
    expect(isUnreadAnswer(new Error("x"))).toBe(false);
  });

  it("takes its limit from CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES, 32 MiB by default", () => {
    expect(maxMessageBytes({})).toBe(32 * 1024 * 1024);
    expect(maxMessageBytes({ CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES: "1048576" })).toBe(1_048_576);
    expect(maxMessageBytes({ CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES: "-1" })).toBe(32 * 1024 * 1024);
  });
});

/** What the connection rejects the pending request with when `message` is an error response. */
function rejection(message: AnyMessage): RequestError | undefined {
  if (!("error" in message)) return undefined;
  const { code, message: text, data } = message.error;
  return new RequestError(code, text, data);
}

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

  it("never answers an over-limit response: the connection hears an unread-answer error for its id", async () => {
    const { feed, written, reader } = connect(64);
    const pad = "a".repeat(100);
    feed.enqueue(
      bytes(
        `{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"allow-once"},"_meta":{"p":"${pad}"}}}\n`,
      ),
    );
    feed.enqueue(
      bytes(`{"jsonrpc":"2.0","\\u0069d":1,"\\u0065rror":{"code":1,"message":"${pad}"}}\n`),
    );
    feed.enqueue(bytes(`{"jsonrpc":"2.0","result":{"p":"${pad}"},"i\\u0064":"r\\u002d2"}\n`));
    feed.close();

    const answers: AnyMessage[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      answers.push(next.value);
    }
    expect(answers.map((a) => ("id" in a ? a.id : undefined))).toEqual([0, 1, "r-2"]);
    expect(answers.map((answer) => isUnreadAnswer(rejection(answer)))).toEqual([true, true, true]);
    expect(written).toEqual([]);
  });

  it("drops an over-limit response without a usable id, writing nothing, and hands on the next message", async () => {
    const { feed, written, reader } = connect(64);
    const pad = "a".repeat(100);
    feed.enqueue(bytes(`{"jsonrpc":"2.0","result":{"p":"${pad}"}}\n`));
    feed.enqueue(bytes(`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"${pad}"}}\n`));
    feed.enqueue(bytes(`{"jsonrpc":"2.0","id":2,"method":"m"}\n`));
    feed.close();

    expect((await reader.read()).value).toEqual({ jsonrpc: "2.0", id: 2, method: "m" });
    expect((await reader.read()).done).toBe(true);
    expect(written).toEqual([]);
  });

  it("answers an over-limit line with both method and result as the request it claims to be", async () => {
    const { feed, written, reader } = connect(64);
    feed.enqueue(
      bytes(`{"jsonrpc":"2.0","id":4,"method":"m","result":{"p":"${"a".repeat(100)}"}}\n`),
    );
    feed.close();
    expect((await reader.read()).done).toBe(true);
    expect(written.map((line) => JSON.parse(line) as AnyMessage)).toEqual([
      expect.objectContaining({
        id: 4,
        error: expect.objectContaining({ code: -32600 }) as object,
      }),
    ]);
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
