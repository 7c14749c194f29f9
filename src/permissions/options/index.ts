import {
  finalizeChoices,
  type OptionBuilder,
  type PermissionAsk,
  type PermissionChoice,
} from "../choices.js";
import { editOptions, readOptions } from "./filesystem.js";
import { mcpOptions } from "./mcp.js";
import { enterPlanOptions, exitPlanOptions } from "./plan.js";
import { sandboxNetworkOptions } from "./sandbox.js";
import { shellOptions } from "./shell.js";
import { skillOptions } from "./skill.js";
import { webFetchOptions } from "./web-fetch.js";
import { wholeToolOptions } from "./whole-tool.js";

/** One builder per tool family (permission-extension.md, "Tool-specific behavior"). */
const BUILDERS: Readonly<Record<string, OptionBuilder>> = {
  Bash: shellOptions,
  PowerShell: shellOptions,
  Read: readOptions,
  Glob: readOptions,
  Grep: readOptions,
  Edit: editOptions,
  Write: editOptions,
  MultiEdit: editOptions,
  NotebookEdit: editOptions,
  WebFetch: webFetchOptions,
  Skill: skillOptions,
  EnterPlanMode: enterPlanOptions,
  ExitPlanMode: exitPlanOptions,
  SandboxNetworkAccess: sandboxNetworkOptions,
  WebSearch: wholeToolOptions,
  Agent: wholeToolOptions,
  Task: wholeToolOptions,
};

export const COMPUTER_USE_PREFIX = "mcp__computer-use__";

export function builderFor(toolName: string): OptionBuilder {
  if (toolName.startsWith("mcp__")) return mcpOptions;
  // Own keys only: a tool named like an Object.prototype member is an unknown tool.
  return (Object.hasOwn(BUILDERS, toolName) && BUILDERS[toolName]) || wholeToolOptions;
}

/** The ordered options of one ask, each paired with its effect. */
export function buildChoices(ask: PermissionAsk): PermissionChoice[] {
  return finalizeChoices(builderFor(ask.toolName)(ask), ask);
}
