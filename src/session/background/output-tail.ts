import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { cleanMultiline } from "../../util/text.js";

/**
 * The output file is Claude Code's own regular file: a symbolic link put in its place is not
 * followed, and opening a FIFO does not wait for a writer (its type is then refused).
 */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** At most this much of one command's output reaches the client. */
export const TAIL_TOTAL_BYTES = 1024 * 1024;

/* eslint-disable no-control-regex -- escape sequences are what is looked for */
// An escape sequence complete at the start of the text (as cleanMultiline removes them).
const COMPLETE_ESCAPE =
  /^\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/;
/* eslint-enable no-control-regex */
/** How many of the last bytes read are checked, to tell a file cut and written again. */
const LAST_BYTES = 16;
/** A sequence longer than this is not held back waiting for its end. */
const MAX_HELD = 256;

/**
 * Reads a file that a command is still writing, piece by piece, as text a client may show:
 * every byte once and in order up to the bound on the whole, decoded across reads (a
 * character split between two reads is not garbled), and cleaned of escape sequences,
 * holding back a sequence or a `\r\n` that a read cut in two. A file replaced (another
 * file now has its name) or cut shorter than what was read is read again from its start:
 * what it holds then was written since.
 */
export class OutputTail {
  private offset = 0;
  private total = 0;
  private decoder = new StringDecoder("utf8");
  private held = "";
  private full = false;
  /** The file read so far (device and inode), to tell a replaced file. */
  private identity: string | undefined;
  /** The last bytes read, to tell a file cut and written again between two reads. */
  private last = Buffer.alloc(0);

  constructor(private readonly path: string) {}

  /** True once the bound was reached: nothing more is read. */
  get truncated(): boolean {
    return this.full;
  }

  /** Output added since the last read ("" if none); `final` releases what was held back. */
  async read(final = false): Promise<string> {
    if (this.full) return "";
    const raw = await this.readBytes();
    const text = this.held + raw + (final ? this.decoder.end() : "");
    const cut = final ? text.length : holdFrom(text);
    this.held = text.slice(cut);
    let shown = cleanMultiline(text.slice(0, cut));
    if (this.total >= TAIL_TOTAL_BYTES) {
      this.full = true;
      shown += "\n[output truncated]\n";
    }
    return shown;
  }

  /** Whether the file still holds, just before the offset, the bytes last read there. */
  private async stillHolds(handle: FileHandle): Promise<boolean> {
    const { length } = this.last;
    if (length === 0) return true;
    const now = Buffer.alloc(length);
    const { bytesRead } = await handle.read(now, 0, length, this.offset - length);
    return bytesRead === length && now.equals(this.last);
  }

  private async readBytes(): Promise<string> {
    let handle;
    try {
      handle = await open(this.path, READ_FLAGS);
    } catch {
      return ""; // not created yet, already removed, or a symbolic link
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return ""; // a FIFO or a device has no output to tail
      const { size } = stats;
      const identity = `${stats.dev}:${stats.ino}`;
      const replaced = this.identity !== undefined && identity !== this.identity;
      this.identity = identity;
      let restarted = "";
      if (replaced || size < this.offset || !(await this.stillHolds(handle))) {
        restarted = this.decoder.end();
        this.decoder = new StringDecoder("utf8");
        this.offset = 0;
        this.last = Buffer.alloc(0);
      }
      const length = Math.min(size - this.offset, TAIL_TOTAL_BYTES - this.total);
      if (length <= 0) return restarted;
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, this.offset);
      const read = buffer.subarray(0, bytesRead);
      this.offset += bytesRead;
      this.total += bytesRead;
      // A copy of the last bytes alone: a view would keep the whole read buffer alive.
      const tail = Buffer.concat([this.last, read.subarray(-LAST_BYTES)]);
      this.last = Buffer.from(tail.subarray(-LAST_BYTES));
      return restarted + this.decoder.write(read);
    } finally {
      await handle.close();
    }
  }
}

/** Where the part of `text` to hold back starts: an unfinished escape sequence or a last `\r`. */
function holdFrom(text: string): number {
  const escape = text.lastIndexOf("\u001b");
  if (
    escape >= 0 &&
    text.length - escape <= MAX_HELD &&
    !COMPLETE_ESCAPE.test(text.slice(escape))
  ) {
    return escape;
  }
  return text.endsWith("\r") ? text.length - 1 : text.length;
}
