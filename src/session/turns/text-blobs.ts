/**
 * An embedded resource whose blob is text, by its MIME type, is read as the text it holds,
 * so it reaches Claude as a text resource does. Only UTF-8 is read (ASCII is UTF-8): a blob
 * in another charset, or whose bytes are not UTF-8, is refused rather than shown garbled.
 * There is no size limit of its own: a text resource has none either, and the agent's
 * message limit bounds both (a blob's text is smaller than its base64).
 */

import { echoed } from "../../errors.js";

/** application/ types that hold text though their name does not say so. */
const TEXT_APPLICATION_TYPES = new Set(
  [
    "json",
    "xml",
    "javascript",
    "x-javascript",
    "ecmascript",
    "typescript",
    "x-typescript",
    "yaml",
    "x-yaml",
    "toml",
    "x-toml",
    "sql",
    "graphql",
    "x-sh",
    "x-shellscript",
  ].map((subtype) => `application/${subtype}`),
);
/** Structured syntax suffixes of text formats (`application/ld+json`, `image/svg+xml`). */
const TEXT_SUFFIXES = ["+json", "+xml", "+yaml"];
const UTF8_CHARSETS = new Set(["utf-8", "utf8", "us-ascii"]);

/** A MIME type's `type/subtype`, lowercased, and its charset parameter, if any. */
export function parseMimeType(mimeType: string): { essence: string; charset?: string } {
  const [essence = "", ...params] = mimeType.split(";").map((part) => part.trim().toLowerCase());
  for (const param of params) {
    const [name, value] = param.split("=").map((part) => part.trim());
    if (name === "charset" && value) return { essence, charset: value.replace(/^"(.*)"$/, "$1") };
  }
  return { essence };
}

/** Which MIME types are text: every `text/*`, the text application types, the suffixes. */
export function isTextType(essence: string): boolean {
  return (
    essence.startsWith("text/") ||
    TEXT_APPLICATION_TYPES.has(essence) ||
    TEXT_SUFFIXES.some((suffix) => essence.endsWith(suffix))
  );
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A text blob's text, or why it cannot be read (the end of a sentence naming the resource). */
export function blobText(
  blob: string,
  charset: string | undefined,
): { text: string } | { refused: string } {
  if (charset && !UTF8_CHARSETS.has(charset)) {
    return { refused: `in charset ${echoed(charset)} (only UTF-8 is read)` };
  }
  // MIME writes base64 over lines: whitespace is no part of it.
  const data = blob.replace(/\s+/g, "");
  if (!BASE64.test(data) || data.length % 4 === 1) return { refused: "whose blob is not base64" };
  try {
    // fatal: a byte that is not UTF-8 throws; a leading byte order mark is dropped.
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(data, "base64"));
    return { text };
  } catch {
    return { refused: "whose blob is not UTF-8 text" };
  }
}
