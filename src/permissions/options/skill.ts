import { stringField } from "../../tools/input.js";
import {
  allowOnce,
  choice,
  reject,
  type OptionBuilder,
  type PermissionChoice,
} from "../choices.js";
import { labels } from "../labels.js";
import { OPTION_IDS } from "../option-ids.js";
import { localAllowRule } from "./generated.js";

/**
 * The parameterized prefix of a skill invocation, as Claude Code computes it: the first
 * word when arguments follow, unless that word is itself a pattern or namespaced.
 */
export function skillPrefix(skill: string): string | undefined {
  const space = skill.indexOf(" ");
  if (space <= 0) return undefined;
  const word = skill.slice(0, space);
  const bare = word.startsWith("/") ? word.slice(1) : word;
  if (bare === "" || word.includes("*") || word.includes(":")) return undefined;
  return word;
}

/** Skill: one-time allow; exact and optional `prefix:*` local rules; reject. */
export const skillOptions: OptionBuilder = (ask) => {
  const skill = stringField(ask.input, "skill")?.trim();
  const durable: PermissionChoice[] = [];
  const exact = skill ? localAllowRule(ask.toolName, skill) : undefined;
  if (skill && exact) {
    durable.push(
      choice(OPTION_IDS.allowSkillExact, labels.dontAskAgainFor(skill), "allow_always", {
        type: "allowWithUpdates",
        updates: exact,
      }),
    );
    const prefix = skillPrefix(skill);
    const prefixRule = prefix ? localAllowRule(ask.toolName, `${prefix}:*`) : undefined;
    if (prefix && prefixRule) {
      durable.push(
        choice(OPTION_IDS.allowSkillPrefix, labels.skillPrefix(prefix), "allow_always", {
          type: "allowWithUpdates",
          updates: prefixRule,
        }),
      );
    }
  }
  return [allowOnce(), ...durable, reject()];
};
