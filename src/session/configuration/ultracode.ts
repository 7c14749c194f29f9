import type { UltracodeReport } from "../../claude/ultracode.js";
import { InvalidParamsError } from "../../errors.js";
import { toggleValue } from "./config-options.js";

/**
 * Ultracode (standing dynamic-workflow orchestration, at any effort level): offered while
 * Claude Code reports that it can be turned on for the session's model, on as Claude Code
 * has it. Claude Code keeps the request across model changes, and turns it off when the
 * effort level changes without it: an effort change sends it along.
 */
export class UltracodeSetting {
  /** Claude Code can turn it on (workflows enabled, a model that supports it). */
  available = false;
  on = false;

  /** Claude Code's report (none: it gave none, nothing changes); true if anything changed. */
  reported(report: UltracodeReport | undefined): boolean {
    if (!report) return false;
    const changed = report.available !== this.available || report.requested !== this.on;
    this.available = report.available;
    this.on = report.requested;
    return changed;
  }

  /** The client's value (a boolean, or "on"/"off" for clients without boolean options). */
  chosen(value: string | boolean): boolean {
    const on = toggleValue(value);
    if (on === undefined || !this.available) {
      throw new InvalidParamsError("Ultracode is not available with this value or model.", {
        value,
      });
    }
    return on;
  }

  /** The client's choice, applied to Claude Code first. */
  async set(
    value: string | boolean,
    claude: { applyFlagSettings(settings: Record<string, unknown>): Promise<void> } | undefined,
  ): Promise<void> {
    const on = this.chosen(value);
    await claude?.applyFlagSettings({ ultracode: on });
    this.on = on;
  }

  /** Flag settings: the process starts with it, and an effort change keeps it. */
  flags(): Record<string, unknown> {
    return this.on ? { ultracode: true } : {};
  }
}
