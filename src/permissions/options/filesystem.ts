import { join } from "node:path";
import { stringField } from "../../tools/input.js";
import {
  allowOnce,
  allowWithUpdates,
  reject,
  type OptionBuilder,
  type PermissionAsk,
  type PermissionChoice,
} from "../choices.js";
import { LABELS, labels, phrases, yesAnd } from "../labels.js";
import { absolutePath, isWithin, ruleDirectory } from "../paths.js";
import type { SuggestionSnapshot } from "../suggestions.js";

/** The path a filesystem tool acts on; search tools default to the cwd. */
function targetPath(ask: PermissionAsk): string | undefined {
  const raw =
    stringField(ask.input, "file_path") ??
    stringField(ask.input, "notebook_path") ??
    stringField(ask.input, "path") ??
    (ask.toolName === "Glob" || ask.toolName === "Grep" ? ask.cwd : undefined);
  return raw ? absolutePath(raw, ask.cwd) : undefined;
}

function withDurable(
  label: string | undefined,
  updates: SuggestionSnapshot | undefined,
): PermissionChoice[] {
  return [allowOnce(), ...(label && updates ? [allowWithUpdates(label, updates)] : []), reject()];
}

/** Only session-scoped bundles are filesystem grants. */
function sessionOnly(bundle: SuggestionSnapshot | undefined): bundle is SuggestionSnapshot {
  return !!bundle && bundle.every((update) => update.destination === "session");
}

/**
 * Read / Glob / Grep: one-time allow; the SDK's session read grant when it covers the
 * path being read; reject.
 */
export const readOptions: OptionBuilder = (ask) => {
  const path = targetPath(ask);
  const bundle = ask.suggestions;
  if (!path || !sessionOnly(bundle)) return withDurable(undefined, undefined);
  const reads: string[] = [];
  const directories: string[] = [];
  for (const update of bundle) {
    if (update.type === "addRules" && update.behavior === "allow") {
      for (const rule of update.rules) {
        const dir = rule.toolName === "Read" && rule.ruleContent && ruleDirectory(rule.ruleContent);
        if (!dir) return withDurable(undefined, undefined);
        reads.push(dir);
      }
    } else if (
      update.type === "addDirectories" &&
      update.directories.every((d) => d.startsWith("/"))
    ) {
      directories.push(...update.directories);
    } else {
      return withDurable(undefined, undefined);
    }
  }
  if (![...reads, ...directories].some((dir) => isWithin(path, dir))) {
    return withDurable(undefined, undefined);
  }
  const unique = (dirs: string[]) => [...new Set(dirs)];
  const fragments = [
    ...(reads.length ? [phrases.readingFrom(unique(reads), "session")] : []),
    ...(directories.length ? [phrases.accessTo(unique(directories), "session")] : []),
  ];
  return withDurable(yesAnd(fragments), bundle);
};

/** Claude Code's own folders: edits there are safety-checked, even under acceptEdits. */
const CLAUDE_FOLDER_RULES = { project: "/.claude/**", home: "~/.claude/**" } as const;

/**
 * Edit / Write / MultiEdit / NotebookEdit: one-time allow; a session edit grant that
 * covers the path; reject. Claude Code's own `.claude` folders get a generated
 * session rule for that folder, since accepting edits does not reach them.
 */
export const editOptions: OptionBuilder = (ask) => {
  const path = targetPath(ask);
  if (!path) return withDurable(undefined, undefined);
  const folder = isWithin(path, join(ask.cwd, ".claude"))
    ? "project"
    : isWithin(path, join(ask.homeDir, ".claude"))
      ? "home"
      : undefined;
  if (folder) {
    const rule: SuggestionSnapshot = [
      {
        type: "addRules",
        rules: [{ toolName: "Edit", ruleContent: CLAUDE_FOLDER_RULES[folder] }],
        behavior: "allow",
        destination: "session",
      },
    ];
    return withDurable(LABELS.ownSettingsForSession, rule);
  }
  return withDurable(describeEditBundle(ask, path), ask.suggestions);
};

/**
 * The label of a session edit bundle that covers `path`. Claude Code's bundle for a path
 * outside the working directories both switches the session to accept edits and adds
 * the directory: the label says both, the mode switch first, since it reaches every
 * edit in every working directory.
 */
function describeEditBundle(ask: PermissionAsk, path: string): string | undefined {
  const bundle = ask.suggestions;
  if (!sessionOnly(bundle)) return undefined;
  let acceptEdits = false;
  const directories: string[] = [];
  for (const update of bundle) {
    if (update.type === "setMode" && update.mode === "acceptEdits") acceptEdits = true;
    else if (
      update.type === "addDirectories" &&
      update.directories.every((d) => d.startsWith("/"))
    ) {
      directories.push(...update.directories);
    } else return undefined;
  }
  const unique = [...new Set(directories)];
  const inDirectories = unique.some((dir) => isWithin(path, dir));
  if (acceptEdits) {
    const covered = inDirectories || ask.workingDirectories.some((dir) => isWithin(path, dir));
    if (!covered) return undefined;
    return unique.length ? labels.allEditsIncluding(unique) : LABELS.allEditsDuringSession;
  }
  return inDirectories ? yesAnd([phrases.accessTo(unique, "session")]) : undefined;
}
