import type { AvailableCommand, ContentBlock, PromptResponse } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../acp/session-client.js";
import type { ClaudeQuery } from "../claude/query.js";
import type { SlashCommand } from "../claude/types.js";
import { cleanSingleLine } from "../util/text.js";

/**
 * `/skills` as the agent runs it: Claude Code's own command is a terminal dialog ("isn't
 * available in this environment" in SDK mode), so the agent asks Claude Code for its skills,
 * read again from disk, and lists them.
 */
export const SKILLS_COMMAND: AvailableCommand = {
  name: "skills",
  description: "The skills Claude can use in this session, read again from disk",
};

/** The `_meta.claudeCode.kind` of the agent's answer to `/skills`. */
export const SKILLS_ANSWER_KIND = "skills";

/** Whether the prompt is `/skills` (nothing after it). */
export function isSkillsCommand(blocks: readonly ContentBlock[]): boolean {
  return (
    blocks.length === 1 &&
    blocks[0]!.type === "text" &&
    /^\/skills\s*$/.test(blocks[0]!.text.trim())
  );
}

/** The skills as a list the user reads: each as it is typed, its arguments, what it does. */
export function describeSkills(skills: readonly SlashCommand[]): string {
  const lines = skills.flatMap((skill) => {
    const name = cleanSingleLine(skill.name).replace(/^\//, "");
    if (!name) return [];
    const hint = cleanSingleLine(skill.argumentHint ?? "");
    const description = cleanSingleLine(skill.description ?? "");
    return [`- \`/${name}\`${hint ? ` ${hint}` : ""}${description ? ` — ${description}` : ""}`];
  });
  if (lines.length === 0) {
    return "No skills: Claude Code found none in `.claude/skills` of this project, of your user, or of a plugin.";
  }
  return [`${lines.length === 1 ? "One skill" : `${lines.length} skills`}:`, "", ...lines].join(
    "\n",
  );
}

/** Answers `/skills` in the session, as a turn of its own. */
export async function runSkillsCommand(
  client: SessionClient,
  query: ClaudeQuery,
): Promise<PromptResponse> {
  const text = await query.reloadSkills().then(describeSkills, (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    return `Claude Code could not list its skills: ${cleanSingleLine(reason)}`;
  });
  await client.sendAgentText(text, undefined, { claudeCode: { kind: SKILLS_ANSWER_KIND } });
  return { stopReason: "end_turn" };
}
