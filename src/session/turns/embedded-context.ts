/**
 * Embedded context (a `resource` block's text) as the model reads it: one
 * `<context ref="…">` wrapper that nothing inside can close or forge. The text is kept as
 * is, except that a `context` tag inside it loses its `<` (`&lt;`); the ref is escaped as an
 * XML attribute, on one line.
 */

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  '"': "&quot;",
  "<": "&lt;",
  ">": "&gt;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
}

/** `<context`, `</context`, `< / CONTEXT`…: anything a reader could take for the wrapper's tag. */
const CONTEXT_TAG = /<(?=\s*\/?\s*context\b)/gi;

/** The wrapped text of one embedded resource. */
export function contextText(uri: string, text: string): string {
  const body = text.replace(CONTEXT_TAG, "&lt;");
  return `<context ref="${escapeAttribute(uri)}">\n${body}\n</context>`;
}
