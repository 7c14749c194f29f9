// Which of Claude Code's commands are skills, and the SKILL.md each is read from: a client that
// shows skills apart (AIR) gets them on the command list and on a Skill tool call.
import { basename, isAbsolute } from "node:path";
import type { SkillFiles } from "../acp/air/skills.js";
import { isCleanPath } from "../util/text.js";

export type { SkillFiles };

/**
 * The skills of Claude Code's report. A prompt file of `.claude/commands` (`name.md`) is a
 * command, not a skill: it is left out. A path that is not absolute, or that cleaning would
 * change, is not shown: that skill is listed without its file.
 */
export function skillFiles(report: ReadonlyArray<{ name: string; path?: string }>): SkillFiles {
  const files = new Map<string, string | null>();
  for (const { name, path } of report) {
    if (path !== undefined && basename(path) !== "SKILL.md") continue;
    const shown = path !== undefined && isAbsolute(path) && isCleanPath(path) ? path : null;
    files.set(name, shown);
  }
  return files;
}

/** Whether two reports say the same. */
export function sameSkillFiles(a: SkillFiles | undefined, b: SkillFiles): boolean {
  return (a?.size ?? 0) === b.size && [...b].every(([name, path]) => a?.get(name) === path);
}
