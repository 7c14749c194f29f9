import { allowOnce, allowWithUpdates, reject, type OptionBuilder } from "../choices.js";
import { phrases, yesAnd } from "../labels.js";
import { commandPrefix, ruleDirectory } from "../paths.js";
import type { SuggestionSnapshot } from "../suggestions.js";
import { labelScope, ScopedValues } from "./scope.js";

/**
 * Bash / PowerShell: one-time allow; the SDK's bundle when its whole effect — command
 * rules, read paths, additional directories — can be stated in the label; reject.
 */
export const shellOptions: OptionBuilder = (ask) => {
  const label = ask.suggestions && describeShellBundle(ask.suggestions, ask.toolName);
  return [
    allowOnce(),
    ...(label && ask.suggestions ? [allowWithUpdates(label, ask.suggestions)] : []),
    reject(),
  ];
};

/** The label of the complete bundle, or undefined when any part cannot be stated. */
export function describeShellBundle(bundle: SuggestionSnapshot, tool: string): string | undefined {
  const commands = new ScopedValues();
  const reads = new ScopedValues();
  const directories = new ScopedValues();
  for (const update of bundle) {
    switch (update.type) {
      case "addRules": {
        const scope = labelScope(update.destination);
        if (update.behavior !== "allow" || !scope) return undefined;
        for (const rule of update.rules) {
          if (rule.toolName === tool && rule.ruleContent) {
            const prefix = commandPrefix(rule.ruleContent);
            // " *" or ":*" would be a label naming no command at all.
            if (prefix.trim() === "") return undefined;
            commands.add(scope, prefix);
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
  const fragments = [
    ...commands
      .groups()
      .map(([scope, prefixes]) => phrases.dontAskAgainForCommands(prefixes, scope)),
    ...reads.groups().map(([scope, dirs]) => phrases.readingFrom(dirs, scope)),
    ...directories.groups().map(([scope, dirs]) => phrases.accessTo(dirs, scope)),
  ];
  return fragments.length ? yesAnd(fragments) : undefined;
}
