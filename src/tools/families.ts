import { agentFamily } from "./agent.js";
import { editFamily } from "./edit.js";
import { fallbackFamily } from "./fallback.js";
import { mcpFamily, parseMcpToolName } from "./mcp.js";
import { planFamily } from "./plan.js";
import { questionFamily } from "./question.js";
import { readFamily } from "./read.js";
import { searchFamily } from "./search.js";
import { shellFamily } from "./shell.js";
import { skillFamily } from "./skill.js";
import { todoFamily } from "./todo.js";
import type { ToolFamily } from "./types.js";
import { webFamily } from "./web.js";

/** Each Claude tool's family; a new built-in tool gets a row here. */
const FAMILIES: Readonly<Record<string, ToolFamily>> = {
  Bash: shellFamily,
  PowerShell: shellFamily,
  Read: readFamily,
  Edit: editFamily,
  MultiEdit: editFamily,
  Write: editFamily,
  NotebookEdit: editFamily,
  Glob: searchFamily,
  Grep: searchFamily,
  WebFetch: webFamily,
  WebSearch: webFamily,
  Agent: agentFamily,
  Task: agentFamily,
  TodoWrite: todoFamily,
  TaskCreate: todoFamily,
  TaskUpdate: todoFamily,
  TaskList: todoFamily,
  TaskGet: todoFamily,
  TaskStop: todoFamily,
  EnterPlanMode: planFamily,
  ExitPlanMode: planFamily,
  AskUserQuestion: questionFamily,
  Skill: skillFamily,
};

/** The family that renders a tool: MCP tools by their prefix, unknown tools by the fallback. */
export function familyOf(name: string): ToolFamily {
  if (Object.hasOwn(FAMILIES, name)) return FAMILIES[name] ?? fallbackFamily;
  return parseMcpToolName(name) ? mcpFamily : fallbackFamily;
}
