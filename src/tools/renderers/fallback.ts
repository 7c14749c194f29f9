import type { ToolFamily, ToolRenderer } from "../types.js";

/** Unknown tools (and SendMessage, Monitor, ListAgents...): the tool name is the title. */
const render: ToolRenderer = (_input, _context, name) => ({
  kind: "other",
  title: name,
  content: [],
  locations: [],
});

export const fallbackFamily: ToolFamily = { render };
