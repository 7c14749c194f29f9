// What the agent sends, as the client keeps it to show: every field it prints is cut to the
// text limits (text-limits.ts) once, as the message arrives (client.ts), so no renderer ever
// meets megabytes. Ids and values that go back to the agent are left exactly as they are.
// Elsewhere: streamed text is cut as it streams (view/messages.ts), a form's texts where the
// form is read (form.ts).
import type {
  ContentBlock,
  Implementation,
  RequestPermissionRequest,
  SessionModeState,
  SessionUpdate,
  ToolCall,
  ToolCallContent,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import { isRecord } from "../util/records.js";
import { cutField, cutLines } from "./text-limits.js";

/** A `session/update` with its shown fields cut (streamed text is cut by the session view). */
export function cutUpdate(update: SessionUpdate): SessionUpdate {
  switch (update.sessionUpdate) {
    case "tool_call":
    case "tool_call_update":
      return cutToolCall(update);
    case "plan":
      return {
        ...update,
        entries: update.entries.map((entry) => ({ ...entry, content: cutField(entry.content) })),
      };
    case "current_mode_update":
      return { ...update, currentModeId: cutField(update.currentModeId) };
    case "session_info_update":
      return typeof update.title === "string"
        ? { ...update, title: cutField(update.title) }
        : update;
    default:
      return update;
  }
}

/** A permission request: its tool call, option names and hints cut; option ids kept. */
export function cutPermissionRequest(request: RequestPermissionRequest): RequestPermissionRequest {
  return {
    ...request,
    toolCall: cutToolCall(request.toolCall),
    options: request.options.map((option) => ({ ...option, name: cutField(option.name) })),
    ...(isRecord(request._meta) ? { _meta: cutPermissionMeta(request._meta) } : {}),
  };
}

/** The modes `session/new` offers, ids and names cut alike (a mode is looked up by its id). */
export function cutModes(
  state: SessionModeState | null | undefined,
): SessionModeState | null | undefined {
  if (!state) return state;
  return {
    ...state,
    currentModeId: cutField(state.currentModeId),
    availableModes: state.availableModes.map((mode) => ({
      ...mode,
      id: cutField(mode.id),
      name: cutField(mode.name),
    })),
  };
}

/** The agent's name, title and version (`initialize`). */
export function cutAgentInfo(info: Implementation | null | undefined): Implementation | undefined {
  if (!info) return undefined;
  return {
    ...info,
    name: cutField(info.name),
    version: cutField(info.version),
    ...(typeof info.title === "string" ? { title: cutField(info.title) } : {}),
  };
}

function cutToolCall<T extends ToolCall | ToolCallUpdate>(call: T): T {
  return {
    ...call,
    ...(typeof call.title === "string" ? { title: cutField(call.title) } : {}),
    ...(Array.isArray(call.locations)
      ? { locations: call.locations.map((l) => ({ ...l, path: cutField(l.path) })) }
      : {}),
    ...(Array.isArray(call.content) ? { content: call.content.map(cutContent) } : {}),
    ...(isRecord(call._meta) ? { _meta: cutTerminalExit(call._meta) } : {}),
  };
}

function cutContent(item: ToolCallContent): ToolCallContent {
  switch (item.type) {
    case "content":
      return { ...item, content: cutBlock(item.content) };
    case "diff":
      return {
        ...item,
        path: cutField(item.path),
        newText: cutLines(item.newText),
        ...(typeof item.oldText === "string" ? { oldText: cutLines(item.oldText) } : {}),
      };
    default:
      return item;
  }
}

function cutBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case "text":
      return { ...block, text: cutLines(block.text) };
    case "image":
    case "audio":
      return { ...block, mimeType: cutField(block.mimeType) };
    case "resource_link":
      return {
        ...block,
        name: cutField(block.name),
        uri: cutField(block.uri),
        ...(typeof block.title === "string" ? { title: cutField(block.title) } : {}),
      };
    case "resource":
      return {
        ...block,
        resource:
          "text" in block.resource
            ? { ...block.resource, text: cutLines(block.resource.text) }
            : { ...block.resource, uri: cutField(block.resource.uri) },
      };
    default:
      return block;
  }
}

/** `_meta.permission` hints (extension v1): the title is one line, the description text. */
function cutPermissionMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const permission = meta.permission;
  if (!isRecord(permission)) return meta;
  const { title, description } = permission;
  return {
    ...meta,
    permission: {
      ...permission,
      ...(typeof title === "string" ? { title: cutField(title) } : {}),
      ...(typeof description === "string" ? { description: cutLines(description) } : {}),
    },
  };
}

/** `_meta.terminal_exit.signal`, shown with the call's end (its output is bounded where kept). */
function cutTerminalExit(meta: Record<string, unknown>): Record<string, unknown> {
  const exit = meta.terminal_exit;
  if (!isRecord(exit) || typeof exit.signal !== "string") return meta;
  return { ...meta, terminal_exit: { ...exit, signal: cutField(exit.signal) } };
}
