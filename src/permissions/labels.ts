/**
 * Every option label, in Claude Code's wording (design.md, "Labels"). A durable label
 * states the exact value it persists: command prefix, path, host or rule.
 */

export const LABELS = {
  yes: "Yes",
  no: "No",
  enterPlanMode: "Yes, enter plan mode",
  startImplementing: "No, start implementing now",
  exitPlanManual: "Yes, manually approve edits",
  keepPlanning: "No, keep planning",
  allEditsDuringSession: "Yes, allow all edits during this session",
  ownSettingsForSession: "Yes, and allow Claude to edit its own settings for this session",
} as const;

/** Shell command lists longer than this become "similar commands" (Claude Code's budget). */
export const COMMAND_LIST_BUDGET = 50;

/** Where a durable effect lives, as a label says it. */
export type LabelScope = "project" | "session";

const SCOPE_PHRASE: Record<LabelScope, string> = {
  project: "from this project",
  session: "during this session",
};

/** "a", "a and b", "a, b, and c" */
export function joinList(items: readonly string[]): string {
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items.at(-1)}`;
}

/** "npm test commands", or "similar commands" past the budget. */
export function commandsPhrase(prefixes: readonly string[]): string {
  const list = joinList(prefixes);
  return list.length > COMMAND_LIST_BUDGET ? "similar commands" : `${list} commands`;
}

/** Label fragments; each states its values and where the effect lives. */
export const phrases = {
  dontAskAgainForCommands: (prefixes: readonly string[], scope: LabelScope) =>
    `don't ask again for ${commandsPhrase(prefixes)}${scope === "session" ? ` ${SCOPE_PHRASE.session}` : ""}`,
  readingFrom: (dirs: readonly string[], scope: LabelScope) =>
    `allow reading from ${joinList(dirs.map(withSlash))} ${SCOPE_PHRASE[scope]}`,
  accessTo: (dirs: readonly string[], scope: LabelScope) =>
    scope === "project"
      ? `always allow access to ${joinList(dirs.map(withSlash))} ${SCOPE_PHRASE.project}`
      : `allow access to ${joinList(dirs.map(withSlash))} ${SCOPE_PHRASE.session}`,
};

/**
 * One sentence for a bundle of effects. A lone read grant reads "Yes, allow reading
 * from …"; everything else "Yes, and …".
 */
export function yesAnd(fragments: readonly string[]): string {
  if (fragments.length === 1 && fragments[0]!.startsWith("allow reading from")) {
    return `Yes, ${fragments[0]}`;
  }
  return `Yes, and ${joinList(fragments)}`;
}

/** Whole labels for the generated and single-value effects. */
export const labels = {
  /** WebFetch hosts, Skill names, sandbox hosts. */
  dontAskAgainFor: (subject: string, scope: LabelScope = "project") =>
    `Yes, and don't ask again for ${subject}${scope === "session" ? ` ${SCOPE_PHRASE.session}` : ""}`,
  /** Whole-tool rules: MCP tools, WebSearch, Agent, Task, the fallback. */
  toolCommands: (tool: string, scope: LabelScope = "project") =>
    labels.dontAskAgainFor(`${tool} commands`, scope),
  skillPrefix: (prefix: string) => labels.dontAskAgainFor(`${prefix}:* commands`),
  allEditsIn: (dirs: readonly string[]) =>
    `Yes, allow all edits in ${joinList(dirs.map(withSlash))} during this session`,
};

/** Plan-mode exits, by target mode. */
export type ElevatedMode = "auto" | "bypassPermissions" | "acceptEdits";

const KEEP_CONTEXT: Record<ElevatedMode, string> = {
  auto: "Yes, and use auto mode",
  bypassPermissions: "Yes, and bypass permissions",
  acceptEdits: "Yes, auto-accept edits",
};

const CLEAR_CONTEXT_TAIL: Record<ElevatedMode, string> = {
  auto: "use auto mode",
  bypassPermissions: "bypass permissions",
  acceptEdits: "auto-accept edits",
};

export function exitPlanKeepContext(mode: ElevatedMode): string {
  return KEEP_CONTEXT[mode];
}

/** "Yes, clear context (42% used) and use auto mode"; the percentage only when known. */
export function exitPlanClearContext(mode: ElevatedMode, usedPercent?: number): string {
  const used =
    usedPercent === undefined || !Number.isFinite(usedPercent)
      ? ""
      : ` (${Math.round(Math.min(100, Math.max(0, usedPercent)))}% used)`;
  return `Yes, clear context${used} and ${CLEAR_CONTEXT_TAIL[mode]}`;
}

function withSlash(dir: string): string {
  return dir.endsWith("/") ? dir : `${dir}/`;
}
