// Markdown from the agent rendered for a terminal: marked's lexer, our own rendering (the
// markup goes, its meaning stays as styles). Text must be sanitized before it comes here.
import { Lexer, type Token, type Tokens } from "marked";
import type { Style } from "./style.js";

function inline(tokens: readonly Token[] | undefined, style: Style): string {
  return (tokens ?? []).map((token) => inlineToken(token, style)).join("");
}

function inlineToken(token: Token, style: Style): string {
  switch (token.type) {
    case "strong":
      return style.bold(inline((token as Tokens.Strong).tokens, style));
    case "em":
      return style.italic(inline((token as Tokens.Em).tokens, style));
    case "del":
      return inline((token as Tokens.Del).tokens, style);
    case "codespan":
      return style.cyan((token as Tokens.Codespan).text);
    case "link": {
      const link = token as Tokens.Link;
      const text = inline(link.tokens, style);
      return text === link.href ? style.blue(text) : `${text} ${style.dim(`(${link.href})`)}`;
    }
    case "br":
      return "\n";
    case "text":
    case "escape": {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens, style) : unescape(text.text);
    }
    default:
      return "raw" in token && typeof token.raw === "string" ? token.raw : "";
  }
}

/** marked keeps HTML entities it escaped in text tokens. */
function unescape(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

function blocks(tokens: readonly Token[], style: Style): string[] {
  const lines: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "heading": {
        const heading = token as Tokens.Heading;
        lines.push(style.bold(inline(heading.tokens, style)), "");
        break;
      }
      case "paragraph":
        lines.push(...inline((token as Tokens.Paragraph).tokens, style).split("\n"), "");
        break;
      case "code":
        lines.push(...(token as Tokens.Code).text.split("\n").map((l) => `  ${style.dim(l)}`), "");
        break;
      case "list": {
        const list = token as Tokens.List;
        list.items.forEach((item, index) => {
          const mark = list.ordered ? `${Number(list.start || 1) + index}.` : "•";
          const body = blocks(item.tokens, style).filter((l) => l !== "");
          body.forEach((line, i) => lines.push(`${i === 0 ? `${mark} ` : "  "}${line}`));
        });
        lines.push("");
        break;
      }
      case "blockquote":
        lines.push(
          ...blocks((token as Tokens.Blockquote).tokens, style)
            .filter((l) => l !== "")
            .map((l) => style.dim(`│ ${l}`)),
          "",
        );
        break;
      case "hr":
        lines.push(style.dim("─".repeat(20)), "");
        break;
      case "table": {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[]): string =>
          cells.map((c) => inline(c.tokens, style)).join(style.dim(" │ "));
        lines.push(style.bold(row(table.header)), ...table.rows.map(row), "");
        break;
      }
      case "space":
        break;
      case "text": {
        const text = token as Tokens.Text;
        lines.push(...(text.tokens ? inline(text.tokens, style) : text.text).split("\n"));
        break;
      }
      default:
        if ("raw" in token && typeof token.raw === "string") lines.push(...token.raw.split("\n"));
        break;
    }
  }
  return lines;
}

/** Markdown as terminal lines (no blank line at the end). */
export function markdownLines(markdown: string, style: Style): string[] {
  const lines = lexed(markdown, style);
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The blocks rendered; as plain lines if the lexer fails (its regular expressions run out of
 * stack on a block of megabytes): the text is shown, if without its markup.
 */
function lexed(markdown: string, style: Style): string[] {
  let tokens: Token[];
  try {
    tokens = new Lexer().lex(markdown);
  } catch {
    return markdown.split("\n");
  }
  return blocks(tokens, style);
}

/**
 * Streamed markdown, held until its blocks are finished: up to the last blank line that is not
 * inside a code fence. The text is kept as lines, each looked at once as it completes, so a
 * block that grows in many small pieces costs no more than the block.
 */
export class MarkdownBlocks {
  /** Complete lines not taken yet, each with its line break. */
  private readonly lines: string[] = [];
  /** The line being written (no line break yet). */
  private open = "";
  private inFence = false;
  /** How many of `lines` make up the finished blocks. */
  private finished = 0;

  /** The text not taken yet (the unfinished block). */
  get text(): string {
    return this.lines.join("") + this.open;
  }

  /** The last `count` lines not taken, the one being written included. */
  recent(count: number): string {
    return this.lines.slice(-count).join("") + this.open;
  }

  push(text: string): void {
    let from = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", from)) {
      const line = this.open + text.slice(from, end);
      this.open = "";
      this.lines.push(`${line}\n`);
      if (/^\s*(```|~~~)/.test(line)) this.inFence = !this.inFence;
      else if (!this.inFence && line.trim() === "") this.finished = this.lines.length;
      from = end + 1;
    }
    this.open += text.slice(from);
  }

  /** Takes the finished blocks; with `all`, all the text (a fence left open ends with it). */
  take(all: boolean): string {
    if (all) {
      const done = this.text;
      this.lines.length = 0;
      this.open = "";
      this.inFence = false;
      this.finished = 0;
      return done;
    }
    // What is left starts after a blank line outside a fence: the fence state is its own.
    const done = this.lines.splice(0, this.finished).join("");
    this.finished = 0;
    return done;
  }
}
