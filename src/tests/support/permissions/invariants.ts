/**
 * The request-level invariants every built option list must satisfy, whatever the SDK
 * sent (permission-extension.md: "Standard option ids", "Durable SDK suggestions",
 * "Tool-specific behavior"). Written as plain checks so a property test can run them
 * hundreds of thousands of times.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { PermissionUpdate } from "../../../claude/types.js";
import type { PermissionAsk, PermissionChoice } from "../../../permissions/choices.js";
import { commandParts } from "../../../permissions/command-rules.js";
import { OPTION_IDS } from "../../../permissions/option-ids.js";

export class InvariantError extends Error {}

function check(condition: boolean, message: string, detail?: unknown): asserts condition {
  if (!condition) {
    throw new InvariantError(
      `${message}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`,
    );
  }
}

const STANDARD_IDS = new Set<string>(Object.values(OPTION_IDS));
const KIND_GROUP: Record<string, number> = {
  allow_once: 0,
  allow_always: 1,
  reject_once: 2,
  reject_always: 2,
};
const EXIT_PLAN_ELEVATED = new Set<string>([
  OPTION_IDS.exitPlanAuto,
  OPTION_IDS.exitPlanBypass,
  OPTION_IDS.exitPlanAcceptEdits,
  OPTION_IDS.exitPlanClearAuto,
  OPTION_IDS.exitPlanClearBypass,
  OPTION_IDS.exitPlanClearAcceptEdits,
]);
// eslint-disable-next-line no-control-regex -- a label must not carry control characters
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const SHELL = new Set(["Bash", "PowerShell"]);
const READ = new Set(["Read", "Glob", "Grep"]);
const EDIT = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
const NO_DURABLE = new Set(["EnterPlanMode", "ExitPlanMode"]);

function within(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" ? value : undefined;
}

function localRule(toolName: string, ruleContent?: string): PermissionUpdate[] {
  return [
    {
      type: "addRules",
      rules: [ruleContent === undefined ? { toolName } : { toolName, ruleContent }],
      behavior: "allow",
      destination: "localSettings",
    },
  ];
}

/** The path a filesystem tool acts on, as the contract describes it (search tools: the cwd). */
function targetPath(ask: PermissionAsk): string | undefined {
  const raw =
    str(ask.input, "file_path") ??
    str(ask.input, "notebook_path") ??
    str(ask.input, "path") ??
    (ask.toolName === "Glob" || ask.toolName === "Grep" ? ask.cwd : undefined);
  if (!raw) return undefined;
  return isAbsolute(raw) ? resolve(raw) : resolve(ask.cwd, raw);
}

/**
 * The rules the adapter may generate for this ask (permission-extension.md: WebFetch
 * `domain:<hostname>`, Skill exact and `prefix:*`, whole-tool rules, `.claude` edits).
 */
export function generatedEffects(ask: PermissionAsk): PermissionUpdate[][] {
  const tool = ask.toolName;
  if (tool === "WebFetch") {
    const url = str(ask.input, "url");
    try {
      const parsed = new URL(url ?? "");
      const web = parsed.protocol === "http:" || parsed.protocol === "https:";
      return web && parsed.hostname ? [localRule(tool, `domain:${parsed.hostname}`)] : [];
    } catch {
      return [];
    }
  }
  if (tool === "Skill") {
    const skill = str(ask.input, "skill")?.trim();
    if (!skill) return [];
    const space = skill.indexOf(" ");
    const word = space > 0 ? skill.slice(0, space) : "";
    const prefixed = word !== "" && word !== "/" && !/[*:]/.test(word);
    return [localRule(tool, skill), ...(prefixed ? [localRule(tool, `${word}:*`)] : [])];
  }
  if (EDIT.has(tool)) {
    const path = targetPath(ask);
    const folders: Array<[string, string]> = [
      [resolve(ask.cwd, ".claude"), "/.claude/**"],
      [resolve(ask.homeDir, ".claude"), "~/.claude/**"],
    ];
    const folder = path ? folders.find(([dir]) => within(path, dir)) : undefined;
    return folder
      ? [
          [
            {
              type: "addRules",
              rules: [{ toolName: "Edit", ruleContent: folder[1] }],
              behavior: "allow",
              destination: "session",
            },
          ],
        ]
      : [];
  }
  if (
    SHELL.has(tool) ||
    READ.has(tool) ||
    NO_DURABLE.has(tool) ||
    tool === "SandboxNetworkAccess"
  ) {
    return [];
  }
  if (tool.startsWith("mcp__")) return [];
  return [localRule(tool)];
}

/** A generated rule's label names the host, skill or tool it persists, and where. */
function checkGeneratedLabel(
  ask: PermissionAsk,
  label: string,
  updates: readonly PermissionUpdate[],
): void {
  const [update] = updates;
  const rule = update?.type === "addRules" ? update.rules[0] : undefined;
  check(rule !== undefined, "a generated effect is one rule", updates);
  checkScopes(label, updates);
  if (EDIT.has(ask.toolName)) {
    check(
      label === "Yes, and allow Claude to edit its own settings for this session",
      "the .claude rule's label",
      label,
    );
    return;
  }
  const value = rule.ruleContent?.replace(/^domain:/, "") ?? rule.toolName;
  check(label.includes(value), "a generated rule's label names its value", { label, value });
  check(label.endsWith(` ${PROJECT}`), "a local-settings rule's label ends `in this project`", {
    label,
  });
}

const PROJECT = "in this project";
const BROADER = "(broader than this command)";

/**
 * Every destination the effect writes is said, with one phrase each (design.md: local
 * settings `in this project`, the session `during this session`), and no other is
 * claimed; no label hides its rules behind `similar commands` or runs past the limit.
 */
function checkScopes(label: string, bundle: readonly PermissionUpdate[]): void {
  const destinations = new Set(bundle.map((u) => u.destination));
  check(
    [...destinations].every((d) => d === "localSettings" || d === "session"),
    "only localSettings and session effects are representable",
    { bundle },
  );
  if (destinations.has("session")) {
    check(
      label.includes("during this session") || label.includes("for this session"),
      "a session effect says so",
      { label },
    );
  }
  check(
    destinations.has("localSettings") === label.includes(PROJECT),
    "a local-settings effect says `in this project`, and only such an effect",
    { label, bundle },
  );
  check(!label.includes("from this project"), "one phrase per destination", { label });
  check(!label.includes("similar"), "a label names its rules, never `similar commands`", {
    label,
  });
  check(label.length <= 4_000, "a label is at most 4,000 characters (longer is not offered)", {
    length: label.length,
  });
}

/**
 * A shell command rule is named in the label; a prefix that is not a whole part of the
 * approved command is named among those said to be broader than it.
 */
function checkCommandRule(ask: PermissionAsk, label: string, ruleContent: string): void {
  const prefixed = ruleContent.endsWith(" *") || ruleContent.endsWith(":*");
  const value = prefixed ? ruleContent.slice(0, -2) : ruleContent;
  check(value.trim() !== "", "a command rule names a command", { ruleContent });
  check(!value.includes("*"), "a rule with a pattern inside is not offered", { ruleContent });
  check(label.includes(value), "the label names every command rule", { value, label });
  const command = str(ask.input, "command");
  const isPart =
    command !== undefined && commandParts(command).has(value.replace(/\s+/g, " ").trim());
  if (isPart) return;
  check(prefixed, "an exact rule is offered only for a part of the approved command", {
    ruleContent,
    command,
  });
  const broaderGroups = [...label.matchAll(/any (.*?) command \(broader than this command\)/g)];
  check(
    broaderGroups.some((group) => group[1]!.includes(value)),
    "a prefix broader than the approved command is said to be so",
    { value, command, label },
  );
}

/** The rule's value is a whole part of the approved command (so not broader than it). */
function isWholePart(ask: PermissionAsk, ruleContent: string): boolean {
  const value = ruleContent.replace(/( \*|:\*)$/, "");
  const command = str(ask.input, "command");
  return command !== undefined && commandParts(command).has(value.replace(/\s+/g, " ").trim());
}

function withSlash(dir: string): string {
  return dir.endsWith("/") ? dir : `${dir}/`;
}

/** The durable option's label states the values and lifetime of the snapshot it applies. */
function checkSnapshotLabel(
  ask: PermissionAsk,
  label: string,
  bundle: readonly PermissionUpdate[],
): void {
  const tool = ask.toolName;
  checkScopes(label, bundle);

  if (SHELL.has(tool)) {
    for (const update of bundle) {
      check(
        (update.type === "addRules" && update.behavior === "allow") ||
          update.type === "addDirectories",
        "a shell bundle holds only allow rules and added directories",
        { bundle },
      );
      if (update.type === "addDirectories") {
        update.directories.forEach((dir) =>
          check(label.includes(withSlash(dir)), "the label names every added directory", {
            dir,
            label,
          }),
        );
      }
      if (update.type === "addRules") {
        for (const rule of update.rules) {
          check(rule.ruleContent !== undefined, "a shell rule names what it allows", { rule });
          if (rule.toolName === "Read") {
            const dir = /^\/(\/.*)\/\*\*$/.exec(rule.ruleContent ?? "")?.[1];
            check(
              dir !== undefined && label.includes(withSlash(resolve(dir))),
              "the label names every read path",
              {
                rule,
                label,
              },
            );
          } else {
            check(rule.toolName === tool, "a shell bundle's command rules are for this shell", {
              rule,
            });
            checkCommandRule(ask, label, rule.ruleContent ?? "");
          }
        }
      }
    }
    const broader = bundle.some(
      (u) =>
        u.type === "addRules" &&
        u.rules.some((r) => r.toolName === tool && !isWholePart(ask, r.ruleContent ?? "")),
    );
    check(broader === label.includes(BROADER), "only a broader rule is said to be broader", {
      label,
    });
    return;
  }
  if (READ.has(tool) || EDIT.has(tool)) {
    check(
      bundle.every((u) => u.destination === "session"),
      "filesystem grants only when session-scoped",
      { bundle },
    );
    const path = targetPath(ask);
    check(path !== undefined, "a filesystem grant needs a path");
    const dirs = bundle.flatMap((u) => {
      if (u.type === "addDirectories") return u.directories;
      if (u.type === "addRules") {
        return u.rules.flatMap((r) => {
          const dir = /^\/(\/.*)\/\*\*$/.exec(r.ruleContent ?? "")?.[1];
          return r.toolName === "Read" && dir ? [dir] : [];
        });
      }
      return [];
    });
    const acceptEdits = bundle.some((u) => u.type === "setMode" && u.mode === "acceptEdits");
    const covered =
      dirs.some((dir) => within(path, dir)) ||
      (EDIT.has(tool) && acceptEdits && ask.workingDirectories.some((d) => within(path, d)));
    check(covered, "filesystem grants only when covering the current path", { path, bundle });
    check(
      bundle.every((u) => u.type !== "setMode" || (EDIT.has(tool) && u.mode === "acceptEdits")),
      "the only mode a filesystem grant switches to is accept edits, for edits",
      { tool, bundle },
    );
    // The mode switch reaches every edit in every working directory: the label says so
    // first, and never as if it were limited to the added directories.
    check(
      acceptEdits === label.startsWith("Yes, allow all edits during this session"),
      "a switch to accept edits is said, as all edits during this session",
      { label, bundle },
    );
    check(!/allow all edits in /.test(label), "no edit label claims to be limited to a directory", {
      label,
    });
    dirs.forEach((dir) =>
      check(
        label.includes(withSlash(resolve(dir))) || label.includes(withSlash(dir)),
        "the label names the directory",
        { dir, label },
      ),
    );
    return;
  }
  if (tool === "SandboxNetworkAccess") {
    const host = str(ask.input, "host")?.trim();
    check(
      bundle.length === 1 &&
        bundle[0]?.type === "addRules" &&
        bundle[0].behavior === "allow" &&
        bundle[0].rules.length === 1 &&
        bundle[0].rules[0]?.toolName === "WebFetch" &&
        bundle[0].rules[0].ruleContent === `domain:${host}`,
      "the sandbox bundle is exactly the host rule asked about",
      { host, bundle },
    );
    check(label.includes(host ?? "\u0000"), "the label names the host", { label });
    return;
  }
  if (tool.startsWith("mcp__")) {
    check(
      bundle.length === 1 &&
        bundle[0]?.type === "addRules" &&
        bundle[0].behavior === "allow" &&
        bundle[0].rules.length === 1 &&
        bundle[0].rules[0]?.toolName === tool &&
        bundle[0].rules[0].ruleContent === undefined,
      "an MCP bundle is exactly the allow rule for that tool",
      { tool, bundle },
    );
    check(label.includes(tool), "the label names the tool", { label });
    return;
  }
  check(false, "this tool family offers no SDK bundle", { tool, bundle });
}

/** Checks one built request; throws InvariantError with the broken rule. */
export function checkRequest(ask: PermissionAsk, choices: readonly PermissionChoice[]): void {
  const ids = choices.map((c) => c.option.optionId);
  check(new Set(ids).size === ids.length, "option ids are unique per request", ids);
  check(
    choices.filter((c) => c.option.optionId === OPTION_IDS.reject).length === 1,
    "every request offers one reject",
    ids,
  );
  check(
    choices.some((c) => c.option.kind === "allow_once"),
    "every request offers a one-time allow",
    ids,
  );
  let group = 0;
  for (const { option, effect } of choices) {
    check(STANDARD_IDS.has(option.optionId), "ids are standard option ids", option.optionId);
    const kindGroup = KIND_GROUP[option.kind];
    check(kindGroup !== undefined, "the option kind is a valid ACP kind", option.kind);
    check(
      kindGroup >= group,
      "options are grouped allow_once, allow_always, then reject kinds",
      ids,
    );
    group = kindGroup;
    check(
      typeof option.name === "string" && option.name.trim() !== "" && !CONTROL.test(option.name),
      "a label is non-empty text without control characters",
      option.name,
    );
    switch (effect.type) {
      case "allowOnce":
        check(
          option.kind === "allow_once" && option.optionId === OPTION_IDS.allowOnce,
          "allow-once",
          option,
        );
        break;
      case "reject":
        check(
          option.kind === "reject_once" && option.optionId === OPTION_IDS.reject,
          "reject",
          option,
        );
        break;
      case "exitPlan":
        check(ask.toolName === "ExitPlanMode", "only ExitPlanMode exits plan mode", ask.toolName);
        check(
          effect.mode === "default"
            ? option.kind === "allow_once" && option.optionId === OPTION_IDS.exitPlanDefault
            : option.kind === "allow_always" && EXIT_PLAN_ELEVATED.has(option.optionId),
          "exit-plan kinds: manual allow_once, elevated allow_always",
          option,
        );
        break;
      case "allowWithUpdates": {
        check(option.kind === "allow_always", "a durable effect is allow_always", option);
        check(
          ask.persistentChoicesAllowed,
          "matchedAskRule suppresses every persistent choice",
          option,
        );
        const updates = effect.updates as readonly PermissionUpdate[];
        const generated = generatedEffects(ask).some((rule) => isDeepStrictEqual(rule, updates));
        const snapshot =
          ask.suggestions !== undefined && isDeepStrictEqual(updates, ask.suggestions);
        check(
          generated || snapshot,
          "a durable effect is the labelled snapshot or the generated rule for that tool",
          { tool: ask.toolName, option, updates },
        );
        if (generated) checkGeneratedLabel(ask, option.name, updates);
        else checkSnapshotLabel(ask, option.name, updates);
        break;
      }
      default: {
        const unknown: never = effect;
        check(false, "unknown effect", unknown);
      }
    }
  }
  if (!ask.persistentChoicesAllowed) {
    for (const { option } of choices) {
      check(
        option.kind !== "allow_always" || EXIT_PLAN_ELEVATED.has(option.optionId),
        "matchedAskRule: no allow_always except ExitPlanMode mode choices",
        option,
      );
    }
  }
  if (ask.toolName === "ExitPlanMode") checkExitPlan(ask, choices);
}

const PRIORITY = ["auto", "bypassPermissions", "acceptEdits"] as const;

function checkExitPlan(ask: PermissionAsk, choices: readonly PermissionChoice[]): void {
  const elevated = PRIORITY.find((mode) => ask.plan.availableModes.has(mode));
  const exits = choices.flatMap((c) => (c.effect.type === "exitPlan" ? [c.effect] : []));
  const keep = exits.filter((e) => e.mode !== "default" && !e.clearContext);
  const clear = exits.filter((e) => e.clearContext);
  check(
    exits.filter((e) => e.mode === "default").length === 1,
    "ExitPlanMode always offers manual approval",
  );
  check(
    keep.length === (elevated ? 1 : 0),
    "one keep-context elevated choice, when a mode is available",
  );
  check(
    clear.length === (elevated && ask.plan.planText.trim() !== "" ? 1 : 0),
    "one clear-context choice, only with a non-empty plan",
  );
  [...keep, ...clear].forEach((e) =>
    check(e.mode === elevated, "auto > bypassPermissions > acceptEdits", e),
  );
}
