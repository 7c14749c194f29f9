import { stringField } from "../../tools/input.js";
import { allowOnce, allowWithUpdates, reject, type OptionBuilder } from "../choices.js";
import { commandRuleLabel } from "../command-rules.js";
import { phrases, yesAnd, type LabelScope } from "../labels.js";
import { ruleDirectory } from "../paths.js";
import type { SuggestionSnapshot } from "../suggestions.js";
import { labelScope, ScopedValues } from "./scope.js";

/**
 * Bash / PowerShell: one-time allow; the SDK's bundle when its whole effect — command
 * rules, read paths, additional directories — can be stated in the label; reject.
 */
export const shellOptions: OptionBuilder = (ask) => {
  const command = stringField(ask.input, "command");
  const label = ask.suggestions && describeShellBundle(ask.suggestions, ask.toolName, command);
  return [
    allowOnce(),
    ...(label && ask.suggestions ? [allowWithUpdates(label, ask.suggestions)] : []),
    reject(),
  ];
};

/**
 * The label of the complete bundle, or undefined when any part cannot be stated. Every
 * command rule is named; a prefix broader than the part of `command` it approves is
 * said to be so.
 */
export function describeShellBundle(
  bundle: SuggestionSnapshot,
  tool: string,
  command: string | undefined,
): string | undefined {
  const named = new ScopedValues();
  const broader = new ScopedValues();
  const reads = new ScopedValues();
  const directories = new ScopedValues();
  for (const update of bundle) {
    switch (update.type) {
      case "addRules": {
        const scope = labelScope(update.destination);
        if (update.behavior !== "allow" || !scope) return undefined;
        for (const rule of update.rules) {
          if (rule.toolName === tool && rule.ruleContent) {
            const stated = commandRuleLabel(rule.ruleContent, command);
            if (!stated) return undefined;
            (stated.kind === "named" ? named : broader).add(scope, stated.value);
            continue;
          }
          const dir =
            rule.toolName === "Read" && rule.ruleContent && ruleDirectory(rule.ruleContent);
          if (!dir) return undefined;
          reads.add(scope, dir);
        }
        break;
      }
      case "addDirectories": {
        const scope = labelScope(update.destination);
        if (!scope || !update.directories.every((dir) => dir.startsWith("/"))) return undefined;
        update.directories.forEach((dir) => directories.add(scope, dir));
        break;
      }
      default:
        // A mode switch or a removal is not something a shell label states.
        return undefined;
    }
  }
  const commandScopes: LabelScope[] = (["project", "session"] as const).filter(
    (scope) => named.of(scope).length || broader.of(scope).length,
  );
  const fragments = [
    ...commandScopes.map((scope) =>
      phrases.dontAskAgainForCommands(
        { named: named.of(scope), broader: broader.of(scope) },
        scope,
      ),
    ),
    ...reads.groups().map(([scope, dirs]) => phrases.readingFrom(dirs, scope)),
    ...directories.groups().map(([scope, dirs]) => phrases.accessTo(dirs, scope)),
  ];
  return fragments.length ? yesAnd(fragments) : undefined;
}
