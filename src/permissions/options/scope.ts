import type { PermissionUpdateDestination } from "../../claude/types.js";
import type { LabelScope } from "../labels.js";

/**
 * How a label states where a durable effect lives. Only destinations a label can state
 * honestly are representable: the project's local settings and the session.
 */
export function labelScope(destination: PermissionUpdateDestination): LabelScope | undefined {
  switch (destination) {
    case "localSettings":
      return "project";
    case "session":
      return "session";
    default:
      return undefined;
  }
}

/** Values of one kind, grouped by scope, deduplicated in first-seen order. */
export class ScopedValues {
  private readonly values: Record<LabelScope, string[]> = { project: [], session: [] };

  add(scope: LabelScope, value: string): void {
    if (!this.values[scope].includes(value)) this.values[scope].push(value);
  }

  of(scope: LabelScope): string[] {
    return this.values[scope];
  }

  /** Non-empty groups, project first. */
  groups(): Array<[LabelScope, string[]]> {
    return (["project", "session"] as const)
      .map((scope): [LabelScope, string[]] => [scope, this.values[scope]])
      .filter(([, values]) => values.length > 0);
  }
}
