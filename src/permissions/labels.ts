/**
 * Every option label, in Claude Code's wording except where that wording hides part of
 * the effect (design.md, "Labels"). A durable label states every value it persists
 * (command prefix, path, host or rule), where it lives, and any mode switch.
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

/**
 * A durable label longer than this is not offered: a label is never cut, and a list of
 * thousands of characters is no longer something a user reads before choosing it.
 */
export const LABEL_LIMIT = 4_000;

/** Where a durable effect lives, as a label says it. */
export type LabelScope = "project" | "session";

/**
 * One phrase per destination, said by every label whose effect goes there: local
 * settings (`.claude/settings.local.json`) are "in this project", the session is
 * "during this session".
 */
export const SCOPE_PHRASE: Record<LabelScope, string> = {
  project: "in this project",
  session: "during this session",
};

/** Said after command prefixes that also approve what the approved command did not ask for. */
export const BROADER_THAN_COMMAND = "(broader than this command)";

/** "a", "a and b", "a, b, and c" (or "or"). */
export function joinList(items: readonly string[], conjunction: "and" | "or" = "and"): string {
  if (items.length <= 2) return items.join(` ${conjunction} `);
  return `${items.slice(0, -1).join(", ")}, ${conjunction} ${items.at(-1)}`;
}

/** The command rules of a shell bundle, by how they relate to the approved command. */
export interface CommandRules {
  /** Prefixes or exact commands that are each a whole part of the approved command. */
  named: readonly string[];
  /** Prefixes that also cover commands the approved one is not (`npm run` for `npm run build`). */
  broader: readonly string[];
}

/**
 * "npm test and make lint commands", "any npm run command (broader than this command)",
 * or both joined by "and": every rule is named, however long the list (clients wrap).
 */
export function commandsPhrase({ named, broader }: CommandRules): string {
  return [
    ...(named.length ? [`${joinList(named)} commands`] : []),
    ...(broader.length ? [`any ${joinList(broader, "or")} command ${BROADER_THAN_COMMAND}`] : []),
  ].join(" and ");
}

/** Label fragments; each states its values and where the effect lives. */
export const phrases = {
  dontAskAgainForCommands: (rules: CommandRules, scope: LabelScope) =>
    `don't ask again for ${commandsPhrase(rules)} ${SCOPE_PHRASE[scope]}`,
  readingFrom: (dirs: readonly string[], scope: LabelScope) =>
    `allow reading from ${joinList(dirs.map(withSlash))} ${SCOPE_PHRASE[scope]}`,
  accessTo: (dirs: readonly string[], scope: LabelScope) =>
    `${scope === "project" ? "always " : ""}allow access to ${joinList(dirs.map(withSlash))} ${SCOPE_PHRASE[scope]}`,
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
    `Yes, and don't ask again for ${subject} ${SCOPE_PHRASE[scope]}`,
  /** Whole-tool rules: MCP tools, WebSearch, Agent, Task, the fallback. */
  toolCommands: (tool: string, scope: LabelScope = "project") =>
    labels.dontAskAgainFor(`${tool} commands`, scope),
  skillPrefix: (prefix: string) => labels.dontAskAgainFor(`${prefix}:* commands`),
  /** Claude Code's accept-edits bundle that also adds directories: the mode switch comes first. */
  allEditsIncluding: (dirs: readonly string[]) =>
    `${LABELS.allEditsDuringSession}, including in ${joinList(dirs.map(withSlash))}`,
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
