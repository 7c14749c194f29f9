/**
 * Claude Code's @-mentions, as the bundled build acts on them: in the user message's last
 * block, when it is text, an `@` at the start, after whitespace (`\s`) or after one of
 * MENTION_PUNCTUATION starts a mention: `@path`, `@~/path`, `@"quoted path"`,
 * `@path#L1-3`, `@server:resource`, `@agent-name`. Claude Code reads the named file without
 * asking and sends it to the model. The quoted form has no escape for `"`, and an `@` that
 * starts a mention inside the quotes starts a second one.
 */

/**
 * The characters besides whitespace after which Claude Code starts a mention: the CJK full
 * stop and comma and the fullwidth question and exclamation marks, from its own scanner.
 * mention-starters.test.ts reads them from the installed CLI and fails when they differ;
 * e2e-mention-starters.test.ts finds them by what the real binary reads.
 */
export const MENTION_PUNCTUATION = "\u3002\u3001\uFF1F\uFF01";

/** A character after which an `@` starts a mention. */
const STARTER = `[\\s${MENTION_PUNCTUATION}]`;
/** An `@` where Claude Code would start a mention. */
const MENTION_START = new RegExp(`(^|${STARTER})@`);
const MENTION_STARTS = new RegExp(MENTION_START.source, "g");
const ONE_STARTER = new RegExp(`^${STARTER}$`);

/** Whether Claude Code starts a mention at an `@` right after `char` ("" at the start). */
export function startsMention(char: string): boolean {
  return char === "" || ONE_STARTER.test(char);
}

/**
 * WORD JOINER: invisible, neither whitespace nor a mention starter, so an `@` right after it
 * starts no mention. The model reads the text as before.
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
