import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { log } from "../logger.js";
import { isWithin } from "../permissions/paths.js";

/** Where Claude Code keeps plan files: `<config dir>/plans/`. */
export function plansDirectory(env: NodeJS.ProcessEnv): string {
  return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude"), "plans");
}

const WRITING_TOOLS = new Set(["Write", "Edit", "MultiEdit"]);

/**
 * In plan mode Claude Code hands ExitPlanMode an empty input and keeps the plan in a
 * file it told the model to write. The session remembers the last plan file written.
 */
export class PlanFileTracker {
  private latest: string | undefined;

  constructor(private readonly directory: string) {}

  observe(toolName: string, input: Record<string, unknown>): void {
    const path = input.file_path;
    if (WRITING_TOOLS.has(toolName) && typeof path === "string" && isWithin(path, this.directory)) {
      this.latest = path;
    }
  }

  /** The plan: ExitPlanMode's own `plan` when it has one, else the plan file's text. */
  async planText(input: Record<string, unknown>): Promise<string> {
    if (typeof input.plan === "string" && input.plan.trim()) return input.plan;
    if (!this.latest) return "";
    try {
      return await readFile(this.latest, "utf8");
    } catch (error) {
      log.warn(`could not read the plan file ${this.latest}`, error);
      return "";
    }
  }
}
