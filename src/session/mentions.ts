/**
 * Claude Code's @-mentions, as the bundled build acts on them (checked end to end in
 * e2e-embedded-context.test.ts): in the user message's last block, when it is text, an `@`
 * at the start or after any whitespace (`\s`) starts a mention: `@path`, `@~/path`,
 * `@"quoted path"`, `@path#L1-3`. Claude Code reads the named file without asking and sends
 * it to the model. The quoted form has no escape for `"`, and a whitespace-`@` inside the
 * quotes starts a second mention.
 */

/** An `@` where Claude Code would start a mention. */
const MENTION_START = /(^|\s)@/;
const MENTION_STARTS = new RegExp(MENTION_START.source, "g");

/**
 * WORD JOINER: invisible and not whitespace, so an `@` right after it starts no mention.
 * The model reads the text as before.
 */
const WORD_JOINER = "\u2060";

/** The text with no mention left in it: a word joiner before each `@` that would start one. */
export function inertMentions(text: string): string {
  return text.replace(MENTION_STARTS, `$1${WORD_JOINER}@`);
}

/**
 * Characters that keep a path from being mentioned exactly: a quote (the quoted form cannot
 * hold one), `#` (read as a line range, so another file would be read), and control
 * characters or whitespace other than a space (line breaks, tabs).
 */
const UNMENTIONABLE = /["#\p{Cc}]|[^\S ]/u;

/**
 * The mention that makes Claude Code read exactly the file at `path`, quoted when it holds
 * spaces; undefined when no mention names it and nothing else.
 */
export function fileMention(path: string): string | undefined {
  if (!path || UNMENTIONABLE.test(path) || MENTION_START.test(path)) return undefined;
  return path.includes(" ") ? `@"${path}"` : `@${path}`;
}
