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

/** ACP prompt content -> the content of one Claude user message. */
export function promptToClaude(blocks: readonly ContentBlock[]): UserContentBlock[] {
  if (blocks.length === 0) throw new InvalidParamsError("The prompt is empty.");
  return blocks.map(blockToClaude);
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

function blockToClaude(block: ContentBlock): UserContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return imageBlock(block.data, block.mimeType);
    case "resource_link":
      return { type: "text", text: linkText(block.uri, block.name) };
    case "resource": {
      const { resource } = block;
      if ("text" in resource) {
        return {
          type: "text",
          text: `<context ref="${resource.uri}">\n${resource.text}\n</context>`,
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
