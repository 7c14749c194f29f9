// Reading a command's terminal (`_meta.terminal_*`, the shapes Zed and the ACP registry parse)
// from the update log, and the scripted turn that runs a command.
import { execFileSync } from "node:child_process";
import type { E2E } from "../e2e/index.js";
import { toolCallEvents } from "./index.js";

export interface TerminalMeta {
  terminal_info?: { terminal_id: string };
  terminal_output?: { terminal_id: string; data: string };
  terminal_output_delta?: { terminal_id: string; data: string };
  terminal_exit?: { terminal_id: string; exit_code: number | null; signal: string | null };
}

export function metaOf(update: { _meta?: unknown }): TerminalMeta {
  return update._meta ?? {};
}

/** The `data` of a call's output updates under `key`, in arrival order. */
export function terminalOutputs(
  e2e: E2E,
  sessionId: string,
  id: string,
  key: "terminal_output" | "terminal_output_delta" = "terminal_output",
): string[] {
  return toolCallEvents(e2e, sessionId, id).flatMap((e) => {
    const output = metaOf(e)[key];
    return output ? [output.data] : [];
  });
}

export function terminalExitOf(
  e2e: E2E,
  sessionId: string,
  id: string,
): TerminalMeta["terminal_exit"] {
  return toolCallEvents(e2e, sessionId, id)
    .map((e) => metaOf(e).terminal_exit)
    .find(Boolean);
}

/** A model turn that runs `command` with Bash under the tool use id `id`. */
export function bashTurn(id: string, command: string, extra: Record<string, unknown> = {}) {
  return {
    content: [
      {
        type: "tool_use" as const,
        id,
        name: "Bash",
        input: { command, description: id, ...extra },
      },
    ],
  };
}

/** A command that would run 30 s, printing a line a second; `mark` finds its processes. */
export const longCommand = (mark: string) =>
  `for i in $(seq 1 30); do echo ${mark} $i; sleep 1; done`;

/** The processes whose command line holds `mark`. */
export function processesWith(mark: string): string[] {
  const table = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return table.split("\n").filter((line) => line.includes(mark) && !line.includes("ps -eo"));
}
