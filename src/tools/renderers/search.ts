import { booleanField, nonBlankField, numberField, stringField } from "../input.js";
import { displayPath, locationOf } from "../paths.js";
import { literalResult } from "../result-content.js";
import type { ToolContext, ToolFamily, ToolInput, ToolRenderer } from "../types.js";

type Rendering = ReturnType<ToolRenderer>;

/** Glob: "Find `<path>` `<pattern>`". */
function renderGlob(input: ToolInput, context: ToolContext): Rendering {
  const searchPath = nonBlankField(input, "path");
  const pattern = nonBlankField(input, "pattern");
  let title = "Find";
  if (searchPath) title += ` \`${displayPath(searchPath, context)}\``;
  if (pattern) title += ` \`${pattern}\``;
  return { kind: "search", title, content: [], locations: locationOf(searchPath, context) };
}

function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, "\\$&")}"`;
}

/**
 * Grep as an equivalent grep command line. Unlike the older adapter, which put
 * `| head -N` among the flags, the pipes come last, where a shell would run them.
 */
function grepCommandLine(input: ToolInput, context: ToolContext): string {
  const parts = ["grep"];
  if (booleanField(input, "-i")) parts.push("-i");
  if (booleanField(input, "-n")) parts.push("-n");
  if (booleanField(input, "-o")) parts.push("-o");
  for (const flag of ["-A", "-B", "-C"]) {
    const lines =
      numberField(input, flag) ?? (flag === "-C" ? numberField(input, "context") : undefined);
    if (lines !== undefined) parts.push(`${flag} ${lines}`);
  }
  const mode = stringField(input, "output_mode");
  if (mode === "files_with_matches") parts.push("-l");
  else if (mode === "count") parts.push("-c");
  const glob = nonBlankField(input, "glob");
  if (glob) parts.push(`--include=${quoted(glob)}`);
  const type = nonBlankField(input, "type");
  if (type) parts.push(`--type=${type}`);
  if (booleanField(input, "multiline")) parts.push("-P");
  const pattern = stringField(input, "pattern");
  if (pattern !== undefined) parts.push(quoted(pattern));
  const searchPath = nonBlankField(input, "path");
  if (searchPath) parts.push(displayPath(searchPath, context));
  const offset = numberField(input, "offset");
  if (offset) parts.push(`| tail -n +${offset + 1}`);
  const limit = numberField(input, "head_limit");
  if (limit) parts.push(`| head -${limit}`);
  return parts.join(" ");
}

function renderGrep(input: ToolInput, context: ToolContext): Rendering {
  return { kind: "search", title: grepCommandLine(input, context), content: [], locations: [] };
}

const render: ToolRenderer = (input, context, name) =>
  name === "Glob" ? renderGlob(input, context) : renderGrep(input, context);

/** File lists and matching lines are shown literally. */
export const searchFamily: ToolFamily = { render, result: literalResult };
