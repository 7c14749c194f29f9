import type { ContentBlock, EmbeddedResource } from "@agentclientprotocol/sdk";
import type { UserContentBlock } from "../../claude/types.js";
import { echoed, InvalidParamsError } from "../../errors.js";
import { contextText } from "./embedded-context.js";
import { fileMention, inertMentions } from "./mentions.js";
import { blobText, isTextType, parseMimeType } from "./text-blobs.js";

/** Image types the Messages API takes. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

function isImageType(mimeType: string | null | undefined): mimeType is ImageMediaType {
  return !!mimeType && IMAGE_TYPES.has(mimeType);
}

function unsupported(what: string, data: Record<string, unknown> = {}): InvalidParamsError {
  return new InvalidParamsError(`Prompt content not supported: ${what}.`, data);
}

/** Where each prompt block goes: media first, then embedded context, then what the user said. */
type Part =
  | { kind: "media"; block: UserContentBlock }
  | { kind: "context"; text: string }
  | { kind: "said"; text: string };

/**
 * ACP prompt content -> the content of one Claude user message: images and documents, then
 * each embedded resource as its own text block, then one last text block with the user's
 * typed text and the mentions of linked files, in order. Claude Code acts on @-mentions only
 * in that last block (see mentions.ts), so embedded context reaches the model unaltered and
 * inert. With nothing typed or linked, the last context block is the last block: its
 * mentions are made inert instead.
 */
export function promptToClaude(blocks: readonly ContentBlock[]): UserContentBlock[] {
  if (blocks.length === 0) throw new InvalidParamsError("The prompt is empty.");
  const parts = blocks.map(blockToClaude);
  const content: UserContentBlock[] = [];
  for (const part of parts) if (part.kind === "media") content.push(part.block);
  const contexts = parts.flatMap((p) => (p.kind === "context" ? [p.text] : []));
  const said = joinText(parts.flatMap((p) => (p.kind === "said" ? [p.text] : [])));
  const last = contexts.pop();
  for (const text of contexts) content.push({ type: "text", text });
  if (last === undefined) {
    if (said) content.push({ type: "text", text: said });
  } else if (/\S/.test(said)) {
    content.push({ type: "text", text: last }, { type: "text", text: said });
  } else {
    content.push({ type: "text", text: inertMentions(last) });
  }
  return content;
}

/** Typed text and link mentions, a space between two that would otherwise touch. */
function joinText(texts: readonly string[]): string {
  let joined = "";
  for (const text of texts) {
    if (joined && !/\s$/.test(joined) && !/^\s/.test(text)) joined += " ";
    joined += text;
  }
  return joined;
}

function imageBlock(data: string, mimeType: string | null | undefined): UserContentBlock {
  if (!isImageType(mimeType)) throw unsupported(`image type ${String(mimeType)}`, { mimeType });
  return { type: "image", source: { type: "base64", media_type: mimeType, data } };
}

/**
 * A file:// link becomes the mention of its file, which Claude Code reads; any other link,
 * or a path no mention names exactly, stays a link, its text made inert.
 */
function linkText(uri: string, name: string): string {
  if (uri.startsWith("file://")) {
    try {
      const mention = fileMention(decodeURIComponent(new URL(uri).pathname));
      if (mention) return mention;
    } catch {
      // not a parseable file URL: fall through to a plain link
    }
  }
  return inertMentions(`[${name}](${uri})`);
}

/**
 * An embedded resource: text (or a blob of a text type, decoded) as context; an image or a
 * PDF as media; any other blob is refused.
 */
function resourceToClaude(resource: EmbeddedResource["resource"]): Part {
  if ("text" in resource) {
    return { kind: "context", text: contextText(resource.uri, resource.text) };
  }
  const { uri, blob, mimeType } = resource;
  if (isImageType(mimeType)) return { kind: "media", block: imageBlock(blob, mimeType) };
  if (mimeType === "application/pdf") {
    const source = { type: "base64", media_type: "application/pdf", data: blob } as const;
    return { kind: "media", block: { type: "document", source } };
  }
  const { essence, charset } = parseMimeType(mimeType ?? "");
  if (!isTextType(essence)) {
    throw unsupported(`embedded ${mimeType ?? "binary"} resource`, { uri, mimeType });
  }
  const read = blobText(blob, charset);
  if ("refused" in read) {
    throw unsupported(`embedded ${echoed(essence)} resource ${read.refused}`, { uri, mimeType });
  }
  return { kind: "context", text: contextText(uri, read.text) };
}

function blockToClaude(block: ContentBlock): Part {
  switch (block.type) {
    case "text":
      return { kind: "said", text: block.text };
    case "image":
      return { kind: "media", block: imageBlock(block.data, block.mimeType) };
    case "resource_link":
      return { kind: "said", text: linkText(block.uri, block.name) };
    case "resource":
      return resourceToClaude(block.resource);
    case "audio":
      throw unsupported("audio", { type: "audio" });
    default: {
      const unknown: never = block;
      throw unsupported("unknown content type", { block: unknown });
    }
  }
}

/** Whether the user's text (the message's last block) is a slash command. */
export function isSlashCommand(content: readonly UserContentBlock[] | undefined): boolean {
  const last = content?.at(-1);
  return last?.type === "text" && last.text.trimStart().startsWith("/");
}
