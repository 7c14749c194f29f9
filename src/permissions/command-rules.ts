/**
 * Shell command rules as a label states them: Claude Code's prefix rules (`npm test *`,
 * older `npm test:*`) and exact-command rules, compared with the command being approved.
 */

/** What one command rule allows, in the words of a label. */
export type CommandRuleLabel =
  /** The rule allows a whole part of the approved command (and, for a prefix, its arguments). */
  | { kind: "named"; value: string }
  /** A prefix shorter than every part it matches: it also allows other commands. */
  | { kind: "broader"; value: string };

const OPERATORS = /&&|\|\||[;&|\n]/;

/**
 * The simple commands of a command line, whitespace collapsed. Splitting ignores
 * quoting: a wrong split only makes a rule look broader than it is, never narrower.
 */
export function commandParts(command: string): Set<string> {
  return new Set(
    command
      .split(OPERATORS)
      .map((part) => part.replace(/\s+/g, " ").trim())
      .filter((part) => part !== ""),
  );
}

/**
 * How a label states `ruleContent` for `command`, or undefined when it cannot: a blank
 * prefix names nothing, a `*` elsewhere is a pattern a label does not spell out, and an
 * exact rule for a command that is not part of this one was not asked about.
 */
export function commandRuleLabel(
  ruleContent: string,
  command: string | undefined,
): CommandRuleLabel | undefined {
  const prefixed = ruleContent.endsWith(" *") || ruleContent.endsWith(":*");
  // The label shows the value as saved; the comparison ignores spacing.
  const value = prefixed ? ruleContent.slice(0, -2) : ruleContent;
  const compact = value.replace(/\s+/g, " ").trim();
  if (compact === "" || value.includes("*")) return undefined;
  const isPart = command !== undefined && commandParts(command).has(compact);
  if (isPart) return { kind: "named", value };
  return prefixed ? { kind: "broader", value } : undefined;
}
