import type { Readable, Writable } from "node:stream";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { Changes, type Clock } from "./wait.js";

export type Direction = "to-agent" | "from-agent";

/** A JSON-RPC message as it crossed the wire (not validated: malformed input is the point). */
export interface WireMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface WireEntry {
  /** Position in the transcript, both directions interleaved in the order we saw them. */
  seq: number;
  direction: Direction;
  /** Milliseconds since the harness started. */
  atMs: number;
  /** The line as sent, without its newline. */
  raw: string;
  /** The parsed line, or undefined when it is not a JSON object. */
  message: WireMessage | undefined;
}

function parse(line: string): WireMessage | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a byte stream into lines; a line may arrive over several chunks. */
class LineSplitter {
  private readonly decoder = new TextDecoder();
  private pending = "";

  push(chunk: Uint8Array): string[] {
    this.pending += this.decoder.decode(chunk, { stream: true });
    const lines = this.pending.split("\n");
    this.pending = lines.pop() ?? "";
    return lines;
  }

  /** What is left after the stream ended (a last line without newline). */
  flush(): string[] {
    const rest = this.pending + this.decoder.decode();
    this.pending = "";
    return rest === "" ? [] : [rest];
  }
}

/** Every NDJSON line in both directions, parsed, with direction and time. */
export class Transcript {
  readonly entries: WireEntry[] = [];
  private readonly changes = new Changes();

  constructor(private readonly clock: Clock) {}

  /** A shared agent's next test starts with an empty transcript. */
  forget(): void {
    this.entries.length = 0;
  }

  record(direction: Direction, raw: string): WireEntry {
    const entry: WireEntry = {
      seq: this.entries.length,
      direction,
      atMs: this.clock(),
      raw,
      message: parse(raw),
    };
    this.entries.push(entry);
    this.changes.notify();
    return entry;
  }

  /** The first entry at or after `from` matching `predicate`, waiting for it if needed. */
  waitFor(
    predicate: (entry: WireEntry) => boolean,
    options: { from?: number; timeoutMs?: number; what?: string } = {},
  ): Promise<WireEntry> {
    const from = options.from ?? 0;
    return this.changes.until(
      () => this.entries.slice(from).find(predicate),
      options.timeoutMs ?? 10_000,
      options.what ?? "a matching wire message",
    );
  }

  /** Requests and notifications with this method, in wire order. */
  calls(method: string, direction?: Direction): WireEntry[] {
    return this.entries.filter(
      (e) => e.message?.method === method && (!direction || e.direction === direction),
    );
  }

  /** The `session/update` notifications the agent sent, each with its place on the wire. */
  sessionUpdates(): Array<SessionNotification & { entry: WireEntry }> {
    return this.calls("session/update", "from-agent").map((entry) => ({
      ...(entry.message?.params as SessionNotification),
      entry,
    }));
  }

  /**
   * The `session/update`s sent after wire position `seq`, but for the session's title: the
   * agent generates and sends it after the first turn, on its own time, so it may follow any
   * answer.
   */
  updatesAfter(seq: number): Array<SessionNotification & { entry: WireEntry }> {
    return this.sessionUpdates().filter(
      (n) => n.entry.seq > seq && n.update.sessionUpdate !== "session_info_update",
    );
  }

  /** The response to the request `request` (it travels the other way, with the same id). */
  responseTo(request: WireEntry): WireEntry | undefined {
    const id = request.message?.id;
    return this.entries.find(
      (e) =>
        e.seq > request.seq &&
        e.direction !== request.direction &&
        e.message !== undefined &&
        e.message.method === undefined &&
        e.message.id === id,
    );
  }

  /** The transcript as text, one line per message: for failure reports. */
  format(last = Infinity, maxLineLength = 2_000): string {
    return this.entries
      .slice(-last)
      .map((e) => {
        const arrow = e.direction === "to-agent" ? "->" : "<-";
        const raw = e.raw.length > maxLineLength ? `${e.raw.slice(0, maxLineLength)}…` : e.raw;
        return `${String(e.atMs).padStart(6)}ms ${arrow} ${raw}`;
      })
      .join("\n");
  }

  stop(): void {
    this.changes.stop();
  }
}

/**
 * The agent's stdout as the web stream the SDK reads, recording every line on the way.
 * Lines for which `deliver` is false are recorded but kept from the SDK client (answers
 * to raw requests it never sent).
 */
export function tapFromAgent(
  stdout: Readable,
  transcript: Transcript,
  deliver: (entry: WireEntry) => boolean,
): ReadableStream<Uint8Array> {
  const lines = new LineSplitter();
  const encoder = new TextEncoder();
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const pass = (line: string): void => {
        const entry = transcript.record("from-agent", line);
        if (open && deliver(entry)) controller.enqueue(encoder.encode(`${line}\n`));
      };
      stdout.on("data", (chunk: Buffer) => lines.push(chunk).forEach(pass));
      stdout.once("close", () => {
        lines.flush().forEach(pass);
        if (open) controller.close();
        open = false;
      });
    },
    cancel() {
      open = false;
    },
  });
}

/**
 * The agent's stdin, recording every line written. The SDK client writes through
 * `writable`; `writeRaw` sends bytes as they are (malformed input tests), in order with it.
 */
export function tapToAgent(
  stdin: Writable,
  transcript: Transcript,
): {
  writable: WritableStream<Uint8Array>;
  writeRaw(bytes: Uint8Array): Promise<void>;
  end(): void;
} {
  const lines = new LineSplitter();
  const writeRaw = (bytes: Uint8Array): Promise<void> => {
    for (const line of lines.push(bytes)) transcript.record("to-agent", line);
    return new Promise((resolve, reject) =>
      stdin.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
  };
  const end = (): void => {
    for (const line of lines.flush()) transcript.record("to-agent", line);
    stdin.end();
  };
  return {
    writable: new WritableStream<Uint8Array>({ write: writeRaw, close: end }),
    writeRaw,
    end,
  };
}
