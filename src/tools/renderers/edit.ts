import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { diffContent, fencedContent } from "../content.js";
import { isRecord, recordsField, stringField } from "../input.js";
import { displayPath, locationOf } from "../paths.js";
import { diffsFromPatch, patchHunks } from "../patch.js";
import type { ResultRenderer, ToolContext, ToolFamily, ToolInput, ToolRenderer } from "../types.js";

type Rendering = ReturnType<ToolRenderer>;

function editRendering(
  verb: string,
  filePath: string | undefined,
  context: ToolContext,
  content: ToolCallContent[],
  untitled = verb,
): Rendering {
  return {
    kind: "edit",
    title: filePath ? `${verb} ${displayPath(filePath, context)}` : untitled,
    content,
    locations: locationOf(filePath, context),
  };
}

/** Edit: the replaced and the new string as a diff, before the tool runs. */
function renderEdit(input: ToolInput, context: ToolContext): Rendering {
  const filePath = stringField(input, "file_path");
  const oldText = stringField(input, "old_string");
  const newText = stringField(input, "new_string");
  const content =
    filePath && newText !== undefined ? [diffContent(filePath, oldText ?? null, newText)] : [];
  return editRendering("Edit", filePath, context, content);
}

/** MultiEdit (older CLIs only): one diff per edit, in order, each as Claude wrote it. */
function renderMultiEdit(input: ToolInput, context: ToolContext): Rendering {
  const filePath = stringField(input, "file_path");
  const content = filePath
    ? recordsField(input, "edits").flatMap((edit) => {
        const oldText = stringField(edit, "old_string");
        const newText = stringField(edit, "new_string");
        return newText === undefined ? [] : [diffContent(filePath, oldText ?? null, newText)];
      })
    : [];
  return editRendering("Edit", filePath, context, content);
}

/** Write: the whole new content; `path`, `file_text` and `file_content` are accepted aliases. */
function renderWrite(input: ToolInput, context: ToolContext): Rendering {
  const filePath = stringField(input, "file_path") ?? stringField(input, "path");
  const text =
    stringField(input, "content") ??
    stringField(input, "file_text") ??
    stringField(input, "file_content");
  const content = filePath && text !== undefined ? [diffContent(filePath, null, text)] : [];
  return editRendering("Write", filePath, context, content, "Preparing file…");
}

/** NotebookEdit: what happens to which cell; the new source shown literally. */
function renderNotebookEdit(input: ToolInput, context: ToolContext): Rendering {
  const filePath = stringField(input, "notebook_path");
  const cell = stringField(input, "cell_id");
  const mode = stringField(input, "edit_mode") ?? "replace";
  const source = stringField(input, "new_source");
  const where = filePath ? ` in ${displayPath(filePath, context)}` : "";
  let title: string;
  if (mode === "insert") title = `Insert cell${cell ? ` after ${cell}` : ""}${where}`;
  else if (mode === "delete") title = `Delete cell${cell ? ` ${cell}` : ""}${where}`;
  else title = cell ? `Edit cell ${cell}${where}` : `Edit notebook${where}`;
  return {
    kind: "edit",
    title,
    content: mode !== "delete" && source?.trim() ? [fencedContent(source)] : [],
    locations: locationOf(filePath, context),
  };
}

const render: ToolRenderer = (input, context, name) => {
  switch (name) {
    case "Write":
      return renderWrite(input, context);
    case "MultiEdit":
      return renderMultiEdit(input, context);
    case "NotebookEdit":
      return renderNotebookEdit(input, context);
    default:
      return renderEdit(input, context);
  }
};

/**
 * The final diff from the structured result: the patch hunks Claude Code applied (they
 * reflect a user's changes to the proposal); a created file is the whole content.
 * Without a usable result the diff shown before the tool ran stays.
 */
const result: ResultRenderer = ({ name, structured }) => {
  if (!isRecord(structured)) return { content: [] };
  if (name === "NotebookEdit") {
    const filePath = stringField(structured, "notebook_path");
    const newSource = stringField(structured, "new_source") ?? "";
    const oldSource = stringField(structured, "old_source") ?? "";
    const deleted = stringField(structured, "edit_mode") === "delete";
    if (!filePath) return { content: [] };
    return {
      content: [diffContent(filePath, oldSource, deleted ? "" : newSource)],
      locations: [{ path: filePath }],
    };
  }
  const filePath = stringField(structured, "filePath");
  if (!filePath) return { content: [] };
  const written = stringField(structured, "content");
  if (structured.type === "create" && written !== undefined) {
    return { content: [diffContent(filePath, null, written)], locations: [{ path: filePath }] };
  }
  const diffs = diffsFromPatch(filePath, patchHunks(structured.structuredPatch));
  if (diffs.content.length) return diffs;
  const original = stringField(structured, "originalFile");
  if (written !== undefined && original !== undefined && original !== written) {
    return { content: [diffContent(filePath, original, written)], locations: [{ path: filePath }] };
  }
  return { content: [] };
};

export const editFamily: ToolFamily = { render, result };
