// The agent makes attached text inert by knowing where Claude Code starts an @-mention
// (mentions.ts). That knowledge is checked against the installed CLI's own scanner here, so
// a Claude Code upgrade that starts mentions after another character fails CI instead of
// reading files unasked. e2e-mention-starters.test.ts checks the same by what the binary does.
import { describe, expect, it } from "vitest";
import { MENTION_PUNCTUATION, startsMention } from "../../../session/turns/mentions.js";
import { scanClaudeCli, stringLiteral } from "../../support/claude-cli-source.js";

const LITERAL = String.raw`((?:[^"\\\n]|\\.){1,200})`;
/** The unquoted scanner: an `@` counts when the character before it is blank or listed. */
const UNQUOTED_SCANNER = new RegExp(
  String.raw`\.charAt\(\w+-1\);if\(\w+\.trim\(\)!==""&&!([\w$]+)\.includes\(\w+\)\)continue`,
);
/** The class before `@` in the quoted and agent mention patterns: `[\s${"..."}]`. */
const PATTERN_CLASS = new RegExp(String.raw`String\.raw\`\[\\s\$\{"${LITERAL}"\}\]\``);

const sorted = (text: string): string[] => [...text].sort();

describe("the mention starters are Claude Code's own", { timeout: 30_000 }, () => {
  it("the installed CLI starts a mention after whitespace and exactly MENTION_PUNCTUATION, in both its scanners", async () => {
    const [scannerLists = [], classes = []] = await scanClaudeCli([
      UNQUOTED_SCANNER,
      PATTERN_CLASS,
    ]);
    // Not found: the scanner changed shape. Read it again (search the CLI for the mention
    // patterns) and update mentions.ts and these anchors together.
    expect(scannerLists, "the unquoted mention scanner").toHaveLength(1);
    expect(classes, "the mention patterns' starter class").toHaveLength(1);

    const [listName] = scannerLists as [string];
    const definitions = (
      await scanClaudeCli([
        new RegExp(String.raw`[,; ]${listName.replace("$", "\\$")}="${LITERAL}"`),
      ])
    )[0]!;
    expect(definitions, `the definition of ${listName}`).toHaveLength(1);

    expect(sorted(stringLiteral(definitions[0]!))).toEqual(sorted(MENTION_PUNCTUATION));
    expect(sorted(stringLiteral(classes[0]!))).toEqual(sorted(MENTION_PUNCTUATION));
  });

  it("startsMention: at the start, after any whitespace and after each listed mark; after nothing else", () => {
    for (const char of ["", " ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "\ufeff"])
      expect(startsMention(char), JSON.stringify(char)).toBe(true);
    for (const char of MENTION_PUNCTUATION) expect(startsMention(char), char).toBe(true);
    for (const char of ["a", "/", "(", '"', ".", "\u2060", "\u0085", "\uff0c", "\u3002\u2060"])
      expect(startsMention(char), JSON.stringify(char)).toBe(false);
  });
});
