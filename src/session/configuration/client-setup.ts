import { z } from "zod";
import type { RequestedSystemPrompt } from "../../acp/session-params.js";
import type { IgnoredOption } from "../../claude/client-options/not-applied.js";
import { pluginRefusal } from "../../claude/client-options/plugins.js";
import {
  readClientOptions,
  type ClientOptions,
  type SdkSystemPrompt,
} from "../../claude/client-options/options.js";
import type { EffortLevel, PermissionMode, SettingSource } from "../../claude/types.js";
import { echoed, InvalidParamsError } from "../../errors.js";
import { acceptedModel } from "./model-ids.js";
import { airCustomInstructions } from "../../acp/air/extension.js";

/** The RFD's modes; any other is refused, as the RFD requires. */
const SYSTEM_PROMPT_MODES = ["append", "override"] as const;
/** The longest system prompt a client may give, in characters. */
export const SYSTEM_PROMPT_MAX_LENGTH = 200_000;

/** The options Claude Code takes as they are; the others are the session's to apply. */
export type PassedOptions = Omit<
  ClientOptions,
  | "model"
  | "effort"
  | "permissionMode"
  | "systemPrompt"
  | "settingSources"
  | "additionalDirectories"
>;

/**
 * What a client configured for its session when it opened it: the system prompt, the
 * setting sources, Claude SDK options, its extra roots; and what it asked for that is not
 * applied, which it is told.
 */
export interface ClientSetup {
  systemPrompt?: SdkSystemPrompt;
  settingSources?: SettingSource[];
  /** Passed to Claude Code under the agent's own options. */
  options: PassedOptions;
  /** The session's configuration starts from these. */
  model?: string;
  effort?: EffortLevel;
  permissionMode?: PermissionMode;
  /** Directories the client's options add. */
  additionalDirectories: string[];
  /** Legacy clients' extra roots (`_meta.additionalRoots`): taken when ACP's field is empty. */
  additionalRoots: string[];
  ignored: IgnoredOption[];
}

export const NO_SETUP: ClientSetup = {
  options: {},
  additionalDirectories: [],
  additionalRoots: [],
  ignored: [],
};

/** `_meta.systemPrompt` of older clients: a string replaces Claude Code's prompt, an object adds to it. */
const legacyPrompt = z.union([
  z.string().min(1).max(SYSTEM_PROMPT_MAX_LENGTH),
  z
    .strictObject({
      append: z.string().max(SYSTEM_PROMPT_MAX_LENGTH).optional(),
      excludeDynamicSections: z.boolean().optional(),
      snapshot: z.boolean().optional(),
      // Older clients may name the preset they keep; it is the only one.
      type: z.literal("preset").optional(),
      preset: z.literal("claude_code").optional(),
    })
    .transform((o) => ({ ...o, type: "preset" as const, preset: "claude_code" as const })),
]);

const additionalRoots = z.array(z.string().min(1).max(4_096)).max(100);

/**
 * The RFD's `systemPrompt` as Claude Code takes it: `append` keeps Claude Code's prompt and
 * adds the text, `override` replaces it. A mode other than these, a block that is not text,
 * no block or too long a text is refused (-32602), and no session opens.
 */
export function rfdSystemPrompt(requested: RequestedSystemPrompt): SdkSystemPrompt {
  const { mode, content } = requested;
  if (!SYSTEM_PROMPT_MODES.some((m) => m === mode)) {
    throw new InvalidParamsError(
      `systemPrompt mode "${echoed(mode)}" is not supported; this agent supports ${SYSTEM_PROMPT_MODES.join(" and ")}.`,
      { systemPrompt: { mode: echoed(mode) } },
    );
  }
  if (content.length === 0) {
    throw new InvalidParamsError("systemPrompt has no content.", { systemPrompt: { content: [] } });
  }
  const texts: string[] = [];
  for (const block of content) {
    if (block.type !== "text" || typeof block.text !== "string") {
      throw new InvalidParamsError(
        `systemPrompt content must be text blocks; a ${echoed(block.type)} block is not supported.`,
        { systemPrompt: { content: { type: echoed(block.type) } } },
      );
    }
    texts.push(block.text);
  }
  const text = texts.join("\n\n");
  if (text.length > SYSTEM_PROMPT_MAX_LENGTH) {
    throw new InvalidParamsError(
      `systemPrompt is longer than ${SYSTEM_PROMPT_MAX_LENGTH} characters.`,
      { length: text.length, maxLength: SYSTEM_PROMPT_MAX_LENGTH },
    );
  }
  return mode === "override" ? text : { type: "preset", preset: "claude_code", append: text };
}

/**
 * What a session-opening request configures: the RFD's `systemPrompt` (it wins), else
 * `_meta.systemPrompt`, else the options' own; `_meta.claudeCode.options` (see
 * claude/client-options/); `_meta.additionalRoots` of legacy clients.
 */
export function clientSetup(request: {
  systemPrompt?: RequestedSystemPrompt | null | undefined;
  _meta?: Record<string, unknown> | null | undefined;
}): ClientSetup {
  const meta = request._meta ?? {};
  const claudeCode = meta.claudeCode;
  const rawOptions =
    typeof claudeCode === "object" && claudeCode !== null && "options" in claudeCode
      ? claudeCode.options
      : undefined;
  const { options, ignored } = readClientOptions(rawOptions);
  const {
    model,
    effort,
    permissionMode,
    systemPrompt: optionsPrompt,
    settingSources,
    additionalDirectories = [],
    ...passed
  } = options;

  // Only a model id is passed on and shown (model-ids.ts).
  const modelId = model === undefined ? undefined : acceptedModel(model, []);
  if (model !== undefined && !modelId) ignored.push({ name: "model", reason: "invalid" });
  let systemPrompt: SdkSystemPrompt | undefined = optionsPrompt;
  if (meta.systemPrompt !== undefined && meta.systemPrompt !== null) {
    const legacy = legacyPrompt.safeParse(meta.systemPrompt);
    if (legacy.success) systemPrompt = legacy.data;
    else ignored.push({ name: "_meta.systemPrompt", reason: "invalid" });
  }
  if (request.systemPrompt) systemPrompt = rfdSystemPrompt(request.systemPrompt);
  const instructions = airCustomInstructions(meta);
  if (instructions !== undefined && instructions.length > SYSTEM_PROMPT_MAX_LENGTH) {
    ignored.push({ name: "_meta.jetbrains.air.customInstructions", reason: "invalid" });
  } else if (instructions?.trim()) {
    systemPrompt = withInstructions(systemPrompt, instructions);
  }

  const roots: string[] = [];
  if (meta.additionalRoots !== undefined) {
    const parsed = additionalRoots.safeParse(meta.additionalRoots);
    if (parsed.success) roots.push(...parsed.data);
    else ignored.push({ name: "_meta.additionalRoots", reason: "invalid" });
  }
  return {
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(settingSources ? { settingSources } : {}),
    options: passed,
    ...(modelId ? { model: modelId } : {}),
    ...(effort ? { effort } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    additionalDirectories,
    additionalRoots: roots,
    ignored,
  };
}

/** AIR's custom instructions after the prompt the session has (Claude Code's by default). */
function withInstructions(prompt: SdkSystemPrompt | undefined, text: string): SdkSystemPrompt {
  const after = (before: string) => `${before}\n\n${text}`;
  if (prompt === undefined) return { type: "preset", preset: "claude_code", append: text };
  if (typeof prompt === "string") return after(prompt);
  if (Array.isArray(prompt)) return [...prompt, text];
  if (prompt.type === "preset")
    return { ...prompt, append: prompt.append ? after(prompt.append) : text };
  const custom = prompt.prompt;
  return { ...prompt, prompt: Array.isArray(custom) ? [...custom, text] : after(custom) };
}

/**
 * The setup with its plugins checked (claude/client-options/plugins.ts): a plugin that holds
 * anything off the allowlist is left out, and the client is told.
 */
export async function withCheckedPlugins(setup: ClientSetup, cwd: string): Promise<ClientSetup> {
  const { plugins, ...options } = setup.options;
  if (!plugins?.length) return setup;
  const refusals = await Promise.all(plugins.map((plugin) => pluginRefusal(plugin.path, cwd)));
  const kept = plugins.filter((_, i) => !refusals[i]);
  const ignored = refusals.flatMap((reason, i) =>
    reason ? [{ name: `plugins[${i}]`, reason }] : [],
  );
  return {
    ...setup,
    options: kept.length ? { ...options, plugins: kept } : options,
    ignored: [...setup.ignored, ...ignored],
  };
}
