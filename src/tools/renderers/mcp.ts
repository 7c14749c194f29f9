import type { ToolFamily, ToolRenderer } from "../types.js";

const MCP_PREFIX = "mcp__";

/** `mcp__server__tool` split at the first `__` after the prefix; tool names may hold `__`. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith(MCP_PREFIX)) return undefined;
  const rest = name.slice(MCP_PREFIX.length);
  const separator = rest.indexOf("__");
  if (separator <= 0 || separator + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, separator), tool: rest.slice(separator + 2) };
}

/**
 * MCP tools: "<server>: <tool>", so the tool's own name stays readable and its server
 * visible; the full `mcp__server__tool` is in `_meta.claudeCode.toolName`, the input in rawInput.
 */
const render: ToolRenderer = (_input, _context, name) => {
  const parsed = parseMcpToolName(name);
  return {
    kind: "other",
    title: parsed ? `${parsed.server}: ${parsed.tool}` : name,
    content: [],
    locations: [],
  };
};

export const mcpFamily: ToolFamily = { render };
