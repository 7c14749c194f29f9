// The messages streamed into the session view: the agent's reply (markdown, shown block by
// block under a preview of the block still being written), its thoughts, the user's words.
import { MarkdownBlocks, markdownLines } from "../markdown.js";
import type { Screen } from "../screen.js";
import { sanitize, type Style } from "../style.js";
import { StreamedLines } from "../text-limits.js";
import { wrapLines } from "../wrap.js";

/** Rows of a reply's unfinished block shown while it streams (its last ones). */
const PREVIEW_ROWS = 8;

export type Stream = "agent" | "thought" | "user";

export class MessageStream {
  private open: { stream: Stream; messageId: string | undefined } | undefined;
  /** The open stream's lines, cut to the line limit as they come. */
  private readonly streamed = new StreamedLines();
  /** The agent's message text not shown yet (an unfinished markdown block). */
  private readonly markdown = new MarkdownBlocks();
  /** Blocks of the open agent message were shown (the next one comes after a blank line). */
  private markdownShown = false;
  /** Lines of our own sent while a block was being written: they follow that block. */
  private afterBlock: string[] = [];

  constructor(
    private readonly screen: Screen,
    private readonly style: Style,
  ) {}

  /** The stream a line is open in, if any. */
  get openStream(): Stream | undefined {
    return this.open?.stream;
  }

  /**
   * A chunk of a message. One that starts another message runs `opening` first (the view
   * ends what it holds), then begins below a gap.
   */
  push(stream: Stream, messageId: string | undefined, raw: string, opening: () => void): void {
    const clean = sanitize(raw);
    if (clean === "") return;
    const { style } = this;
    const same = this.open?.stream === stream && this.open.messageId === messageId;
    if (!same) {
      opening();
      this.open = { stream, messageId };
      this.screen.gap();
      if (stream === "thought") this.screen.stream(style.dim("✻ "));
      if (stream === "user") this.screen.stream(style.blue("› "));
    }
    const text = this.streamed.push(clean);
    if (stream === "agent") {
      this.markdown.push(text);
      this.renderMarkdown(false);
      return;
    }
    this.screen.stream(this.styled(stream, text));
  }

  /**
   * A line of our own (a steer the user sent): printed now, or, while the agent's reply
   * has a block being written, right after that block, which stays whole; it was sent
   * after what that block already said, not before it.
   */
  note(line: string): void {
    if (this.open?.stream === "agent" && this.markdown.text.trim() !== "") {
      this.afterBlock.push(line);
      return;
    }
    this.screen.lines([line]);
  }

  /** An open text line (the agent's unfinished block: all of it) ends here. */
  end(): void {
    const note = this.streamed.end(); // the last line was cut: its length
    if (this.open?.stream === "agent") this.markdown.push(note);
    else if (this.open) this.screen.stream(this.styled(this.open.stream, note));
    if (this.open?.stream === "agent") {
      this.renderMarkdown(true);
      this.markdownShown = false;
    }
    if (this.open) {
      this.screen.endLine();
      this.open = undefined;
    }
    this.printNotes();
  }

  private printNotes(): void {
    if (this.afterBlock.length === 0) return;
    this.screen.lines(this.afterBlock.splice(0));
    // The reply's next block comes after a blank line, as after one of its own.
    this.markdownShown = true;
  }

  /** Streamed text (not the agent's markdown) in its stream's style. */
  private styled(stream: Stream, text: string): string {
    return stream === "thought" ? this.style.dim(this.style.italic(text)) : text;
  }

  /**
   * The agent's text is markdown: shown block by block as each block is finished (all of it
   * when `all`), rendered without the markup.
   */
  private renderMarkdown(all: boolean): void {
    const done = this.markdown.take(all);
    if (done.trim() !== "") {
      // The block's preview goes first: the block is printed in its place.
      this.screen.setPreview([]);
      const lines = markdownLines(done, this.style);
      this.screen.lines(this.markdownShown ? ["", ...lines] : lines);
      this.markdownShown = true;
      this.printNotes();
    }
    this.screen.setPreview(this.previewRows());
  }

  /**
   * The unfinished block as it streams (its last rows, word-wrapped), so a long paragraph
   * shows as it is written: rendered, and kept, once the block is finished.
   */
  private previewRows(): string[] {
    const width = Math.max(8, this.screen.width - 1);
    // Only the block's end is wrapped: wrapping all of it at every piece would grow with it
    // (its last lines, some of them blank perhaps, and of a long line its end).
    const recent = this.markdown.recent(2 * PREVIEW_ROWS);
    const text = tail(recent, PREVIEW_ROWS, (PREVIEW_ROWS + 1) * width).trim();
    if (text === "") return [];
    const gap = this.markdownShown ? [""] : [];
    return [...gap, ...wrapLines([text], width)].slice(-PREVIEW_ROWS);
  }
}

/**
 * The end of `text` that its last `lines` lines show: those lines, then at most their last
 * `chars` characters (the first row of a cut line may then wrap otherwise than in the whole).
 */
function tail(text: string, lines: number, chars: number): string {
  let from = text.trimEnd().length;
  for (let n = 0; n < lines && from > 0; n++) from = text.lastIndexOf("\n", from - 1);
  const end = text.slice(Math.max(0, from + 1));
  return end.length > chars ? end.slice(end.length - chars) : end;
}
