import { performance } from "node:perf_hooks";
import { log } from "../logger.js";

/**
 * Milestones of the cold path, logged at debug level as `mark <name> at <ms>`, so that the
 * bench and anyone reading a debug log can see where a slow start went. The time is on the
 * epoch clock (performance.timeOrigin + now): another process on the machine can place it
 * on its own clock, which the time since this process started (unknown to it) would not let.
 */
export function mark(name: string): void {
  log.debug(`mark ${name} at ${(performance.timeOrigin + performance.now()).toFixed(2)} ms`);
}

const marked = new Set<string>();

/** A milestone met many times (each message of a kind): only its first is logged. */
export function markFirst(name: string): void {
  if (marked.has(name)) return;
  marked.add(name);
  mark(name);
}
