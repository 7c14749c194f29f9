import { performance } from "node:perf_hooks";
import { log } from "../logger.js";

/**
 * Milestones of the cold path, logged at debug level as `mark <name> at <ms>`: the time
 * since this process started (performance.now()), so that the bench and anyone reading
 * a debug log can see where a slow start went.
 */
export function mark(name: string): void {
  log.debug(`mark ${name} at ${performance.now().toFixed(1)} ms`);
}
