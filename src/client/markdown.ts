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
 * How much of streamed markdown is made of finished blocks: up to the last blank line that
 * is not inside a code fence (0: nothing finished yet).
 */
export function finishedLength(markdown: string): number {
  let finished = 0;
  let inFence = false;
  let offset = 0;
  for (const line of markdown.split("\n")) {
    const end = offset + line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === "" && end <= markdown.length) finished = end;
    offset = end;
  }
  return finished;
}
