// A reporter that prints, after the run, the ten test files that took longest (their tests'
// and hooks' time, with the import of the file): where a faster suite starts.
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const timed = modules
      .map((module) => {
        const { duration, collectDuration } = module.diagnostic();
        return { file: relative(process.cwd(), module.moduleId), ms: duration + collectDuration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (timed.length === 0) return;
    const lines = timed.map(({ file, ms }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
    process.stdout.write(`\nThe ${timed.length} slowest test files:\n${lines.join("\n")}\n`);
  }
}
