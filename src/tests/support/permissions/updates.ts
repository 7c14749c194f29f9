/**
 * PermissionUpdate builders and the suggestion shapes the real Claude Code CLI sends
 * (design.md, "What the real CLI sends"), used verbatim as fixtures.
 */
import type {
  PermissionMode,
  PermissionUpdate,
  PermissionUpdateDestination,
} from "../../../claude/types.js";

type Behavior = "allow" | "deny" | "ask";

/** `addRules` of one rule; `ruleContent` undefined means the whole tool. */
export function addRule(
  toolName: string,
  ruleContent: string | undefined,
  destination: PermissionUpdateDestination,
  behavior: Behavior = "allow",
): PermissionUpdate {
  return {
    type: "addRules",
    rules: [ruleContent === undefined ? { toolName } : { toolName, ruleContent }],
    behavior,
    destination,
  };
}

export function setMode(
  mode: PermissionMode,
  destination: PermissionUpdateDestination = "session",
): PermissionUpdate {
  return { type: "setMode", mode, destination };
}

export function addDirectories(
  directories: string[],
  destination: PermissionUpdateDestination = "session",
): PermissionUpdate {
  return { type: "addDirectories", directories, destination };
}

/** Suggestions observed from the real CLI (design.md table), keyed by the call. */
export const REAL_CLI = {
  /** `Bash` `npm test` in cwd. */
  bashNpmTest: [addRule("Bash", "npm test *", "localSettings")],
  /** The same rule from older CLIs. */
  bashNpmTestOlder: [addRule("Bash", "npm test:*", "localSettings")],
  /** `Bash` `mkdir -p /outside/dir`. */
  bashMkdirOutside: [
    addRule("Bash", "mkdir -p /outside/dir", "localSettings"),
    addDirectories(["/outside/dir"], "session"),
    setMode("acceptEdits", "session"),
  ],
  /** `Bash` `git status && npm test`: one rule for the part that needs approval. */
  bashCompound: [addRule("Bash", "npm test *", "localSettings")],
  /** `Read /etc/hostname` (outside cwd). */
  readOutside: [addRule("Read", "//etc/**", "session")],
  /** `Write`/`Edit` in cwd. */
  editInCwd: [setMode("acceptEdits", "session")],
  /** `Write` outside cwd. */
  writeOutside: [setMode("acceptEdits", "session"), addDirectories(["/outside/dir"], "session")],
  /** `Edit .claude/settings.json` (default mode). */
  editClaudeSettings: [setMode("acceptEdits", "session")],
  /** `WebFetch`. */
  webFetch: [addRule("WebFetch", "domain:example.com", "localSettings")],
  /** `WebSearch`. */
  webSearch: [addRule("WebSearch", undefined, "localSettings")],
} satisfies Record<string, PermissionUpdate[]>;
