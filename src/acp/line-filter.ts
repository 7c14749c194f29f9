/** Bytes kept from each end of an oversized line: enough to find its JSON-RPC id. */
export const KEPT_EDGE_BYTES = 4_096;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** One line of the input: whole, or only its edges when it was over the limit. */
export type FilteredLine =
  | { kind: "line"; bytes: Uint8Array }
  | {
      kind: "oversized";
      /** The line's length in bytes (without its line ending). */
      byteLength: number;
      /** Its first and last bytes (at most KEPT_EDGE_BYTES each), as text. */
      head: string;
      tail: string;
    };

/**
 * Splits a byte stream into LF- or CRLF-terminated lines. A line longer than `maxBytes`
 * is never held in memory: only its edges are kept and it comes out as `oversized`, so
 * the reader can answer it and go on with the next line.
 */
export class LineFilter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Set while the current line is over the limit: its edges so far. */
  private oversized: { byteLength: number; head: Uint8Array; tail: Uint8Array } | undefined;

  constructor(private readonly maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
      throw new RangeError("the message limit must be a positive integer");
    }
  }

  /** The complete lines `chunk` ends, in order. */
  *push(chunk: Uint8Array): Generator<FilteredLine> {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) break;
      this.append(chunk.subarray(start, newline));
      yield this.take();
      start = newline + 1;
    }
    if (start < chunk.byteLength) this.append(chunk.subarray(start));
  }

  /** The last line when the input ended without a newline. */
  flush(): FilteredLine | undefined {
    if (this.pendingBytes === 0 && !this.oversized) return undefined;
    return this.take();
  }

  private append(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    if (!this.oversized && this.pendingBytes + bytes.byteLength <= this.maxBytes + 1) {
      // One byte over the limit is kept: it may be the CR of a CRLF ending.
      this.pending.push(bytes.slice());
      this.pendingBytes += bytes.byteLength;
      return;
    }
    if (!this.oversized) {
      const line = this.joinPending();
      this.pending = [];
      this.pendingBytes = 0;
      this.oversized = { byteLength: 0, head: new Uint8Array(0), tail: new Uint8Array(0) };
      this.appendOversized(line);
    }
    this.appendOversized(bytes);
  }

  private appendOversized(bytes: Uint8Array): void {
    const state = this.oversized!;
    state.byteLength += bytes.byteLength;
    if (state.head.byteLength < KEPT_EDGE_BYTES) {
      state.head = concat(state.head, bytes.subarray(0, KEPT_EDGE_BYTES - state.head.byteLength));
    }
    state.tail = concat(state.tail, bytes.subarray(-KEPT_EDGE_BYTES)).slice(-KEPT_EDGE_BYTES);
  }

  private take(): FilteredLine {
    const state = this.oversized;
    this.oversized = undefined;
    if (state) {
      const endsWithCr = state.tail.at(-1) === CARRIAGE_RETURN;
      const tail = endsWithCr ? state.tail.subarray(0, -1) : state.tail;
      return oversizedLine(state.byteLength - (endsWithCr ? 1 : 0), state.head, tail);
    }
    let line = this.joinPending();
    this.pending = [];
    this.pendingBytes = 0;
    if (line.at(-1) === CARRIAGE_RETURN) line = line.subarray(0, -1);
    if (line.byteLength > this.maxBytes) {
      return oversizedLine(
        line.byteLength,
        line.subarray(0, KEPT_EDGE_BYTES),
        line.subarray(-KEPT_EDGE_BYTES),
      );
    }
    return { kind: "line", bytes: line };
  }

  private joinPending(): Uint8Array {
    return this.pending.length === 1 ? this.pending[0]! : concat(...this.pending);
  }
}

function oversizedLine(byteLength: number, head: Uint8Array, tail: Uint8Array): FilteredLine {
  const decoder = new TextDecoder();
  return { kind: "oversized", byteLength, head: decoder.decode(head), tail: decoder.decode(tail) };
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
