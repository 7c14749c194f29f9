import { agentFamily } from "./renderers/agent.js";
import { editFamily } from "./renderers/edit.js";
import { fallbackFamily } from "./renderers/fallback.js";
import { mcpFamily, parseMcpToolName } from "./renderers/mcp.js";
import { planFamily } from "./renderers/plan.js";
import { questionFamily } from "./renderers/question.js";
import { readFamily } from "./renderers/read.js";
import { searchFamily } from "./renderers/search.js";
import { shellFamily } from "./renderers/shell.js";
import { skillFamily } from "./renderers/skill.js";
import { todoFamily } from "./renderers/todo.js";
import type { ToolFamily } from "./types.js";
import { webFamily } from "./renderers/web.js";

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
