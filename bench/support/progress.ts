// Progress goes to stderr; stdout carries only the table.
import { performance } from "node:perf_hooks";

const t0 = performance.now();

export function progress(message: string): void {
  const s = ((performance.now() - t0) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${s}s] ${message}\n`);
}
