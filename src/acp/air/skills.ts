// AIR's marks of skills (extension version 1), as AIR and the published adapter speak them: a
// command that is a skill carries `_meta.jetbrains.air {kind: "skill", skillPath?}` on the
// command list, and a Skill tool call's `skill` key its `path`. Only an AIR client gets them.
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { isAirClient, withAirMeta } from "./extension.js";

/** A skill's name → the absolute path of its SKILL.md, or null for one with no file (bundled). */
export type SkillFiles = ReadonlyMap<string, string | null>;

/** The commands, each skill marked, for an AIR client; any other client's as they are. */
export function airCommands(
  commands: AvailableCommand[],
  skills: SkillFiles | undefined,
  capabilities: { _meta?: unknown },
): AvailableCommand[] {
  if (!skills?.size || !isAirClient(capabilities)) return commands;
  return commands.map((command) => {
    const path = skills.get(command.name);
    if (path === undefined) return command;
    let meta = withAirMeta(command._meta ?? undefined, "kind", "skill");
    if (path !== null) meta = withAirMeta(meta, "skillPath", path);
    return { ...command, _meta: meta };
  });
}

/** AIR's `skill` key of a Skill call: its name as Claude asked for it, and its file when known. */
export function skillKey(
  name: string,
  skills: SkillFiles | undefined,
): { name: string; path?: string } {
  const path = skills?.get(name.replace(/^\//, ""));
  return path ? { name, path } : { name };
}
