// AIR's keys on tool calls and permission requests (extension version 1), as AIR and the
// published adapter speak them. Only an AIR client gets them: `commandTitle` (a command's
// description), `subagent`, `skill` and `mcp` on tool calls, and `permission` on a permission
// request. `planFile`, once declared, shows ExitPlanMode's plan as the file Claude Code keeps it
// in. Each value comes from the input as the client is shown it (already cleaned).
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { ToolCall, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { isRecord } from "../../util/records.js";
import { cleanSingleLine } from "../../util/text.js";
import { AIR_CAPABILITIES, airDeclares, isAirClient, withAirMeta } from "./extension.js";
import { skillKey, type SkillFiles } from "./skills.js";

type Capabilities = { _meta?: unknown };

/** The Claude tool a tool call is of (`_meta.claudeCode.toolName`). */
export function toolNameOf(fields: ToolCallUpdate): string | undefined {
  const claudeCode = isRecord(fields._meta) ? fields._meta.claudeCode : undefined;
  const name = isRecord(claudeCode) ? claudeCode.toolName : undefined;
  return typeof name === "string" ? name : undefined;
}

const text = (value: unknown): string | undefined =>
  (typeof value === "string" && cleanSingleLine(value)) || undefined;

/**
 * `mcp__<server>__<tool>` as AIR names it: the server, and the rest (which may hold `__`).
 * Both come from an MCP server: cleaned as any text a client is shown.
 */
function mcpTool(name: string): { server: string; tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  const server = text(match?.[1]);
  const tool = text(match?.[2]);
  return server && tool ? { server, tool } : undefined;
}

/** The AIR keys a tool call of `name` with this input carries. */
function toolKeys(
  name: string,
  input: unknown,
  skills: SkillFiles | undefined,
): Array<[string, unknown]> {
  const fields = isRecord(input) ? input : {};
  const keys: Array<[string, unknown]> = [];
  if (name === "Bash" || name === "PowerShell") {
    const title = text(fields.description) ?? text(fields.command_description);
    if (title) keys.push(["commandTitle", title]);
  }
  if (name === "Agent" || name === "Task") keys.push(["subagent", true]);
  const skill = name === "Skill" ? text(fields.skill) : undefined;
  if (skill) keys.push(["skill", skillKey(skill, skills)]);
  const mcp = mcpTool(name);
  if (mcp) keys.push(["mcp", mcp]);
  return keys;
}

/** Whether a plan file path names a file that is there (AIR reads the plan from it). */
function existingFile(path: unknown): path is string {
  if (typeof path !== "string" || !isAbsolute(path)) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The suffix of the call that tells AIR an approved plan's file is no longer the one shown. */
export const PLAN_FILE_CLEAR_SUFFIX = ":plan-file-clear";

/**
 * A tool call (or update) as an AIR client is shown it: AIR's keys beside the agent's own, the
 * root `is_mcp_tool_call` flag on the first announcement of an MCP tool's call, and with
 * `planFile` declared, an ExitPlanMode whose plan is a file: its input names the file instead of
 * carrying the plan, and no copy of the plan is shown. Any other client's is returned as it is.
 */
export function airToolCall<T extends ToolCallUpdate>(
  fields: T,
  capabilities: Capabilities,
  first: boolean,
  skills?: SkillFiles,
): T {
  const name = toolNameOf(fields);
  if (!name || !isAirClient(capabilities)) return fields;
  let meta: Record<string, unknown> | undefined = isRecord(fields._meta) ? fields._meta : undefined;
  if (fields.rawInput !== undefined) {
    for (const [key, value] of toolKeys(name, fields.rawInput, skills))
      meta = withAirMeta(meta, key, value);
  }
  if (first && mcpTool(name)) meta = { ...meta, is_mcp_tool_call: true };
  let shown: T = meta ? { ...fields, _meta: meta } : fields;
  if (airDeclares(capabilities, AIR_CAPABILITIES.rawInputRendering))
    shown = withoutCopies(shown, name);
  return name === "ExitPlanMode" && planFileShown(shown, capabilities) ? asPlanFile(shown) : shown;
}

/**
 * The tools whose announcement shows a copy of their input as text (a command's description,
 * a subagent's prompt, the questions, the plan, a fetch's prompt): AIR renders `rawInput`
 * itself (`rawInputRendering`), so it gets no copy.
 */
const INPUT_COPIES: ReadonlySet<string> = new Set([
  "Bash",
  "PowerShell",
  "Agent",
  "Task",
  "AskUserQuestion",
  "ExitPlanMode",
  "WebFetch",
]);

/** A call's announcement or refinement without its text copies of the input; results keep theirs. */
function withoutCopies<T extends ToolCallUpdate>(fields: T, name: string): T {
  const result = fields.status === "completed" || fields.status === "failed";
  if (!INPUT_COPIES.has(name) || result || !fields.content) return fields;
  return { ...fields, content: fields.content.filter((item) => item.type !== "content") };
}

/** Whether an ExitPlanMode's plan is shown as its file: declared, and the file is there. */
export function planFileShown(fields: ToolCallUpdate, capabilities: Capabilities): boolean {
  return (
    airDeclares(capabilities, AIR_CAPABILITIES.planFile) &&
    isRecord(fields.rawInput) &&
    existingFile(fields.rawInput.planFilePath)
  );
}

function asPlanFile<T extends ToolCallUpdate>(fields: T): T {
  const { plan: _plan, ...input } = fields.rawInput as Record<string, unknown>;
  return { ...fields, rawInput: input, ...(fields.content ? { content: [] } : {}) };
}

/** The call after an approved plan's, telling AIR its plan file is shown no more. */
export function planFileCleared(toolCallId: string): ToolCall {
  return {
    toolCallId: `${toolCallId}${PLAN_FILE_CLEAR_SUFFIX}`,
    title: "Exited Plan Mode",
    kind: "switch_mode",
    status: "completed",
    rawInput: { planFilePath: "" },
    content: [],
  };
}

/** A permission request's `_meta` for an AIR client: its presentation under AIR's key too. */
export function airPermissionMeta(
  meta: Record<string, unknown> | undefined,
  capabilities: Capabilities,
): Record<string, unknown> | undefined {
  if (!isAirClient(capabilities) || !isRecord(meta?.permission)) return meta;
  return withAirMeta(meta, "permission", meta.permission);
}

/** AIR's names of what started a compaction (Claude Code says `auto` for its own). */
const TRIGGERS: Readonly<Record<string, string>> = {
  manual: "manual",
  auto: "automatic",
  idle: "idle",
};

/** A compaction's `_meta` for an AIR client: its facts under AIR's `contextCompaction` too. */
export function airCompactionMeta(
  meta: Record<string, unknown>,
  compaction: { meta?: Record<string, unknown>; error?: string },
  capabilities: Capabilities,
): Record<string, unknown> {
  if (!isAirClient(capabilities)) return meta;
  const facts = compaction.meta ?? {};
  const trigger = typeof facts.trigger === "string" ? TRIGGERS[facts.trigger] : undefined;
  const number = (value: unknown) => (typeof value === "number" ? value : undefined);
  const preTokens = number(facts.preTokens);
  const postTokens = number(facts.postTokens);
  return withAirMeta(meta, "contextCompaction", {
    version: 1,
    ...(trigger ? { trigger } : {}),
    ...(preTokens !== undefined ? { preTokens } : {}),
    ...(postTokens !== undefined ? { postTokens } : {}),
    ...(compaction.error ? { error: cleanSingleLine(compaction.error) } : {}),
  });
}
