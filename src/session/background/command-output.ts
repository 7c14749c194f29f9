// What a finished command's terminal has not shown yet. A command followed while it ran
// showed what its output file held when it was read, but Claude Code removes that file as
// the command ends: what the command printed last is then only in the result. The result's
// text is the output with its leading blank lines and trailing whitespace cut, and of a long
// output only a preview, whose whole Claude Code saves to a file the result names.
import { OutputTail } from "./output-tail.js";

/** What a followed command's terminal showed from its output file. */
export interface ShownOutput {
  text: string;
  /** The file's reading reached its bound (and said so): nothing more is shown. */
  full: boolean;
}

/** The output a command's result gives, and whether it is Claude Code's trimmed text. */
export interface ResultOutput {
  text: string;
  trimmed: boolean;
}

const LEADING_BLANK_LINES = /^(?:[ \t]*\r?\n)+/;

/**
 * The part of the result's output the terminal still lacks: all of it when nothing was
 * shown, else what follows the shown text in it, so that nothing is shown twice or left
 * out. Shown text the result cut (its trailing line breaks) is matched without the cut.
 * Trimmed text gets back the line break its last line had lost. Empty when the shown text
 * is no beginning of the result's output: then it cannot be told what is missing.
 */
export function unshownOutput(shown: ShownOutput | undefined, result: ResultOutput): string {
  const { text, trimmed } = result;
  const ended = (rest: string) => (trimmed && rest && !rest.endsWith("\n") ? `${rest}\n` : rest);
  if (!shown) return ended(text);
  if (shown.full) return "";
  if (text.startsWith(shown.text)) return ended(text.slice(shown.text.length));
  if (!trimmed) return "";
  const core = shown.text.replace(LEADING_BLANK_LINES, "").trimEnd();
  if (!text.startsWith(core)) return "";
  const rest = text.slice(core.length);
  const spaceShown = shown.text.slice(shown.text.trimEnd().length);
  return ended(core && rest.startsWith(spaceShown) ? rest.slice(spaceShown.length) : rest);
}

/**
 * A command's output as its result gives it: the file Claude Code saved a long output to,
 * read whole (up to the terminal's bound), else the result's own text.
 */
export async function resultOutput(output: string, savedOutput?: string): Promise<ResultOutput> {
  if (savedOutput !== undefined) {
    const saved = await new OutputTail(savedOutput).read(true).catch(() => "");
    if (saved) return { text: saved, trimmed: false };
  }
  return { text: output, trimmed: true };
}
