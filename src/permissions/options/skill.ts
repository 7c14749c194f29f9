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
 * Arguments come inside `skill` ("review 123") on older CLIs and as a separate `args`
 * field on current ones.
 */
export function skillPrefix(skill: string, args?: string): string | undefined {
  const space = skill.indexOf(" ");
  const word = space > 0 ? skill.slice(0, space) : args?.trim() ? skill : undefined;
  if (!word) return undefined;
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
    const prefix = skillPrefix(skill, stringField(ask.input, "args"));
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
