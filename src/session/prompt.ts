import type { ContentBlock, PromptCapabilities } from "@agentclientprotocol/sdk";
import type { UserContentBlock } from "../claude/types.js";
import { InvalidParamsError } from "../errors.js";

/** What `session/prompt` accepts beyond text and resource links (advertised as-is). */
export const PROMPT_CAPABILITIES: PromptCapabilities = {
  image: true,
  audio: false,
  embeddedContext: true,
};

/** Image types the Messages API takes. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

function isImageType(mimeType: string | null | undefined): mimeType is ImageMediaType {
  return !!mimeType && IMAGE_TYPES.has(mimeType);
}

function unsupported(what: string, data: Record<string, unknown> = {}): InvalidParamsError {
  return new InvalidParamsError(`Prompt content not supported: ${what}.`, data);
}

/** Prompt text as written, or a block of context that stands on its own lines. */
type TextPart = { text: string; block: boolean };

/**
 * ACP prompt content -> the content of one Claude user message. Images and documents come
 * first; all text (typed text, @-mentions of linked files, embedded context) is joined in
 * order into one final text block, because Claude Code reads @-mentioned files only from
 * the message's last text block.
 */
export function promptToClaude(blocks: readonly ContentBlock[]): UserContentBlock[] {
  if (blocks.length === 0) throw new InvalidParamsError("The prompt is empty.");
  const media: UserContentBlock[] = [];
  const text: TextPart[] = [];
  for (const block of blocks) {
    const part = blockToClaude(block);
    if ("text" in part && "block" in part) text.push(part);
    else media.push(part);
  }
  return text.length ? [...media, { type: "text", text: joinText(text) }] : media;
}

function joinText(parts: readonly TextPart[]): string {
  let joined = "";
  parts.forEach((part, index) => {
    if (index > 0) {
      const previous = parts[index - 1]!;
      if (part.block || previous.block) joined += "\n\n";
      else if (!/\s$/.test(joined) && !/^\s/.test(part.text)) joined += " ";
    }
    joined += part.text;
  });
  return joined;
}

function imageBlock(data: string, mimeType: string | null | undefined): UserContentBlock {
  if (!isImageType(mimeType)) throw unsupported(`image type ${String(mimeType)}`, { mimeType });
  return { type: "image", source: { type: "base64", media_type: mimeType, data } };
}

/** A file:// link becomes an @-mention Claude Code can read; others stay links. */
function linkText(uri: string, name: string): string {
  if (uri.startsWith("file://")) {
    try {
      const path = decodeURIComponent(new URL(uri).pathname);
      return path.includes(" ") ? `@"${path}"` : `@${path}`;
    } catch {
      // not a parseable file URL: fall through to a plain link
    }
  }
  return `[${name}](${uri})`;
}

function blockToClaude(block: ContentBlock): UserContentBlock | TextPart {
  switch (block.type) {
    case "text":
      return { text: block.text, block: false };
    case "image":
      return imageBlock(block.data, block.mimeType);
    case "resource_link":
      return { text: linkText(block.uri, block.name), block: false };
    case "resource": {
      const { resource } = block;
      if ("text" in resource) {
        return {
          text: `<context ref="${resource.uri}">\n${resource.text}\n</context>`,
          block: true,
        };
      }
      if (isImageType(resource.mimeType)) return imageBlock(resource.blob, resource.mimeType);
      if (resource.mimeType === "application/pdf") {
        return {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: resource.blob },
        };
      }
      throw unsupported(`embedded ${resource.mimeType ?? "binary"} resource`, {
        uri: resource.uri,
        mimeType: resource.mimeType,
      });
    }
    case "audio":
      throw unsupported("audio", { type: "audio" });
    default: {
      const unknown: never = block;
      throw unsupported("unknown content type", { block: unknown });
    }
  }
}
