import path from "node:path";
import type { ToolCallLocation } from "@agentclientprotocol/sdk";
import type { ToolContext } from "./types.js";

/** A path as titles show it: relative to the session's cwd when inside it. */
export function displayPath(filePath: string, context: ToolContext): string {
  if (!path.isAbsolute(filePath) || !path.isAbsolute(context.cwd)) return filePath;
  const relative = path.relative(context.cwd, filePath);
  if (relative === "") return ".";
  const outside = relative === ".." || relative.startsWith(`..${path.sep}`);
  if (outside || path.isAbsolute(relative)) return filePath;
  return relative;
}

/** Locations carry absolute paths so a client can open them whatever its own cwd. */
export function absolutePath(filePath: string, context: ToolContext): string {
  return path.isAbsolute(filePath) ? filePath : path.resolve(context.cwd, filePath);
}

export function locationOf(
  filePath: string | undefined,
  context: ToolContext,
  line?: number,
): ToolCallLocation[] {
  if (!filePath) return [];
  const location: ToolCallLocation = { path: absolutePath(filePath, context) };
  if (line !== undefined) location.line = line;
  return [location];
}
