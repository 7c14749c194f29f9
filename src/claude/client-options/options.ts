// The Claude SDK options a client may set for its session (`_meta.claudeCode.options` on
// session/new, as acpx and the published adapter's clients send them). Every option the SDK
// has is classified here: applied (with the schema its value must meet) or not applied,
// with the reason the client is told. A new SDK option fails to compile until it is decided.
import type { AgentDefinition, Options, SettingSource } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { readClientEnv } from "./env.js";
import type { IgnoredOption, NotAppliedReason } from "./not-applied.js";

/**
 * Claude Code's own sources, in its order (later files win): what a session reads unless
 * the client narrows it.
 */
export const DEFAULT_SETTING_SOURCES: readonly SettingSource[] = ["user", "project", "local"];

const text = z.string().min(1).max(10_000);
const names = z.array(z.string().min(1).max(200)).max(500);
const count = z.number().int().positive().max(1_000_000);
const effort = z.enum(["low", "medium", "high", "xhigh", "max"]);
const mode = z.enum(["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"]);
const stringRecord = z.record(z.string().max(1_000), z.string().max(100_000));

/** MCP servers a client may name: the transports ACP's own mcpServers have (no in-process ones). */
const mcpServer = z.union([
  z.strictObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: stringRecord.optional(),
  }),
  z.strictObject({
    type: z.enum(["http", "sse"]),
    url: z.url(),
    headers: stringRecord.optional(),
  }),
]);

/**
 * A subagent a client defines: every field the SDK has is decided (a new one fails to
 * compile until it is), and any other key makes the definition invalid. Its own permission
 * mode is left out: a subagent in `bypassPermissions` would run its tools without asking
 * the user.
 */
const AGENT_FIELDS = {
  description: text,
  prompt: z.string().min(1).max(200_000),
  tools: names,
  disallowedTools: names,
  model: z.string().min(1).max(200),
  mcpServers: z
    .array(z.union([z.string().min(1).max(200), z.record(z.string().min(1).max(200), mcpServer)]))
    .max(100),
  criticalSystemReminder_EXPERIMENTAL: z.string().max(10_000),
  skills: names,
  initialPrompt: z.string().max(200_000),
  maxTurns: count,
  autoCompactWindow: count,
  background: z.boolean(),
  omitClaudeMd: z.boolean(),
  memory: z.enum(["user", "project", "local"]),
  effort: z.union([effort, count]),
  observer: z.string().min(1).max(1_000),
  observerMessage: z.string().max(10_000),
} satisfies { [K in Exclude<keyof AgentDefinition, "permissionMode">]-?: z.ZodType };

const agentDefinition = z
  .strictObject({ ...AGENT_FIELDS, permissionMode: z.unknown() })
  .partial()
  .required({ description: true, prompt: true })
  .transform(({ permissionMode: _mode, ...definition }) => definition);

/** The system prompt in the SDK's forms (`_meta.claudeCode.options.systemPrompt`). */
export const sdkSystemPrompt = z.union([
  z.string().min(1).max(200_000),
  z.array(z.string().max(200_000)).min(1).max(100),
  z.strictObject({
    type: z.literal("custom"),
    prompt: z.union([z.string().max(200_000), z.array(z.string().max(200_000)).max(100)]),
    snapshot: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal("preset"),
    preset: z.literal("claude_code"),
    append: z.string().max(200_000).optional(),
    excludeDynamicSections: z.boolean().optional(),
    snapshot: z.boolean().optional(),
  }),
]);
export type SdkSystemPrompt = NonNullable<Options["systemPrompt"]>;

/** What a client may set: each with the schema its value must meet. */
const APPLIED = {
  model: z.string().min(1).max(200),
  fallbackModel: z.string().min(1).max(200),
  effort,
  permissionMode: mode,
  maxTurns: count,
  maxBudgetUsd: z.number().positive().max(1_000_000),
  taskBudget: z.strictObject({ total: count }),
  allowedTools: names,
  disallowedTools: names,
  tools: z.union([
    names,
    z.strictObject({ type: z.literal("preset"), preset: z.literal("claude_code") }),
  ]),
  settingSources: z.array(z.enum(["user", "project", "local"])).max(3),
  additionalDirectories: z.array(z.string().min(1).max(4_096)).max(100),
  env: stringRecord,
  mcpServers: z.record(z.string().min(1).max(200), mcpServer),
  agents: z.record(z.string().min(1).max(200), agentDefinition),
  agent: z.string().min(1).max(200),
  plugins: z
    .array(
      z.strictObject({
        type: z.literal("local"),
        path: z.string().min(1),
        skipMcpDiscovery: z.boolean().optional(),
      }),
    )
    .max(100),
  thinking: z.union([
    z.strictObject({
      type: z.literal("adaptive"),
      display: z.enum(["summarized", "omitted"]).optional(),
    }),
    z.strictObject({
      type: z.literal("enabled"),
      budgetTokens: count.optional(),
      display: z.enum(["summarized", "omitted"]).optional(),
    }),
    z.strictObject({ type: z.literal("disabled") }),
  ]),
  maxThinkingTokens: count,
  betas: names,
  strictMcpConfig: z.boolean(),
  skills: z.union([names, z.literal("all")]),
  toolConfig: z.strictObject({
    askUserQuestion: z.strictObject({ previewFormat: z.enum(["markdown", "html"]).optional() }),
  }),
  planModeInstructions: z.string().min(1).max(100_000),
  systemPrompt: sdkSystemPrompt,
} satisfies { [K in keyof Options]?: z.ZodType };

type AppliedName = keyof typeof APPLIED;

/** Every other SDK option, and why a client cannot set it. */
const NOT_FROM_CLIENTS: { [K in Exclude<keyof Options, AppliedName>]-?: NotAppliedReason } = {
  canUseTool: "permissions",
  permissionPromptToolName: "permissions",
  permissionPrompts: "permissions",
  allowDangerouslySkipPermissions: "permissions",
  // Settings and plugins' hooks, sandbox exceptions, extra CLI flags and tool renames
  // could each approve a tool call without the user.
  settings: "permissions",
  managedSettings: "permissions",
  sandbox: "permissions",
  extraArgs: "permissions",
  toolAliases: "permissions",
  projectConfigRoot: "permissions",
  hooks: "callback",
  pathToClaudeCodeExecutable: "executable",
  executable: "executable",
  executableArgs: "executable",
  spawnClaudeCodeProcess: "executable",
  abortController: "callback",
  stderr: "callback",
  onElicitation: "callback",
  onUserDialog: "callback",
  sessionStore: "callback",
  sessionStoreFlush: "callback",
  cwd: "agent",
  resume: "agent",
  sessionId: "agent",
  continue: "agent",
  forkSession: "agent",
  resumeSessionAt: "agent",
  resumeDropsTurn: "agent",
  includePartialMessages: "agent",
  forwardSubagentText: "agent",
  mcpServersDelivery: "agent",
  pluginDelivery: "agent",
  persistSession: "agent",
  loadTimeoutMs: "agent",
  includeHookEvents: "agent",
  verbatimPrompts: "agent",
  supportedDialogKinds: "agent",
  perTaskStopAffordance: "agent",
  outputFormat: "agent",
  debug: "agent",
  debugFile: "agent",
  title: "agent",
  promptSuggestions: "agent",
  agentProgressSummaries: "agent",
  enableFileCheckpointing: "agent",
};

/** The names of the options a client may set, and of those it may not: the README's two lists. */
export const APPLIED_OPTIONS: readonly string[] = Object.keys(APPLIED);
export const NOT_APPLIED_OPTIONS: Readonly<Record<string, NotAppliedReason>> = NOT_FROM_CLIENTS;

/** The options a client set that the session applies, each valid. */
export type ClientOptions = { [K in AppliedName]?: z.output<(typeof APPLIED)[K]> };

/**
 * What a client's `_meta.claudeCode.options` asks of Claude Code: the options that apply,
 * and those that do not (an option the SDK does not have, one a client may not set, or a
 * value that does not meet its schema). Nothing of an ignored value is kept.
 */
export function readClientOptions(raw: unknown): {
  options: ClientOptions;
  ignored: IgnoredOption[];
} {
  const options: Record<string, unknown> = {};
  const ignored: IgnoredOption[] = [];
  if (raw === undefined || raw === null) return { options, ignored };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return { options, ignored: [{ name: "options", reason: "invalid" }] };
  }
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    if (Object.hasOwn(APPLIED, name)) {
      if (name === "agents") ignored.push(...agentModes(value));
      const parsed = APPLIED[name as AppliedName].safeParse(value);
      if (!parsed.success) ignored.push({ name, reason: "invalid" });
      else if (name === "env") {
        const env = readClientEnv(parsed.data as Record<string, string>);
        options.env = env.env;
        ignored.push(...env.ignored);
      } else options[name] = parsed.data;
    } else {
      const reason = Object.hasOwn(NOT_FROM_CLIENTS, name)
        ? NOT_FROM_CLIENTS[name as keyof typeof NOT_FROM_CLIENTS]
        : "unknown";
      ignored.push({ name: name.slice(0, 100), reason });
    }
  }
  return { options, ignored };
}

/** The permission modes of a client's subagents, which are left out (see agentDefinition). */
function agentModes(agents: unknown): IgnoredOption[] {
  if (typeof agents !== "object" || agents === null) return [];
  return Object.entries(agents as Record<string, unknown>)
    .filter(
      ([, definition]) =>
        typeof definition === "object" && definition !== null && "permissionMode" in definition,
    )
    .map(([name]) => ({
      name: `agents.${name.slice(0, 100)}.permissionMode`,
      reason: "permissions",
    }));
}
