// `npm run demo` without a terminal: the built demo answers by --answer policy and prints a
// readable transcript of the whole session; the effects are checked on disk.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isStale } from "../../../scripts/stale.js";
import { offlineEnv } from "../../demo/project.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const DEMO = join(REPO, "dist", "demo", "index.js");
const kept: string[] = [];

afterEach(async () => {
  for (const root of kept.splice(0))
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

/** Runs the built demo with stdin and stdout not terminals; resolves with its output. */
function runDemo(...args: string[]): Promise<{ code: number; out: string; project: string }> {
  if (!existsSync(DEMO)) throw new Error(`${DEMO} is missing: run \`npm run build\` first.`);
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [DEMO, "--keep", ...args],
      { env: { PATH: process.env.PATH, NO_COLOR: "1" }, timeout: 80_000, maxBuffer: 8 << 20 },
      (error, stdout, stderr) => {
        const project = /Kept the demo project: (\S+)/.exec(stdout)?.[1];
        if (project) kept.push(dirname(project));
        if (!project) {
          reject(
            new Error(
              `no project path in the output (${error?.message ?? "exit 0"}):\n${stdout}\n${stderr}`,
            ),
          );
          return;
        }
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, project });
      },
    );
    child.stdin?.end();
  });
}

describe("npm run demo, answered by policy", () => {
  it(
    "--answer allow-always: shows the read, the diff, the permission with its durable option (by kind, no internal ids), the question and the plan exit; the rule lands",
    { timeout: 90_000 },
    async () => {
      const { code, out, project } = await runDemo("--answer", "allow-always");

      expect(code).toBe(0);
      expect(out).not.toContain("\u001b["); // no colours in a transcript
      // Claude reads the file: the tool call, its location and its content.
      expect(out).toContain("● Read math.js\n");
      expect(out).toContain("return a - b;");
      // The edit, as a diff, asked for.
      expect(out).toContain("╭─ Permission: Edit math.js");
      expect(out).toMatch(/│ - {3}return a - b;\n│ \+ {3}return a \+ b;/);
      // npm test: the permission title, the options with the durable one, the choice, the output.
      expect(out).toContain("╭─ Permission: npm test");
      expect(out).toContain(
        "│   2. Yes, and don't ask again for npm test commands in this project — allow_always",
      );
      expect(out).toContain(
        "╰─ ✓ Yes, and don't ask again for npm test commands in this project\n",
      );
      expect(out).toContain("✔ add(2, 3) === 5");
      // The question (form elicitation), answered with the first choice.
      expect(out).toContain("╭─ Question: What should I plan next?");
      expect(out).toContain('╰─ ✓ Next step = "Test negative numbers"');
      // Plan mode and its exit.
      expect(out).toContain("◆ Mode: Plan (plan)");
      expect(out).toContain("╭─ Permission: Ready to code?");
      expect(out).toMatch(/│ {3}\d\. No, keep planning — reject_once/);
      expect(out).toMatch(/╰─ ✓ Yes, clear context/);
      expect(out).not.toContain("allow-with-updates"); // option ids are the agent's own
      // Progress: the task list and status changes.
      expect(out).toContain("◆ Tasks");
      expect(out).toContain("└ ✓ completed");
      expect(out).toContain("■ Turn ended (end_turn)");
      // A call's status follows the call: no task list or mode line held back in between.
      expect(out).toContain("● Read math.js\n  ↳ math.js:1\n  └ ✓ completed\n");
      expect(out).not.toMatch(/◆ Tasks\n(?: {2}[☐◐☑].*\n)+ {2}└/);
      expect(out).not.toMatch(/◆ Mode: .*\n {2}└/);
      // The effects, on disk and in the demo's summary.
      expect(await readFile(join(project, "math.js"), "utf8")).toContain("return a + b;");
      const settings = await readFile(join(project, ".claude", "settings.local.json"), "utf8");
      expect(settings).toMatch(/Bash\(npm test[ :]\*\)/);
      expect(out).toMatch(/npm test\s+ran, passed/);
      expect(out).toMatch(/settings\.local\.json\s+allow Bash\(npm test/);
    },
  );
});

describe("npm run demo, honest and quiet", () => {
  it(
    "--answer reject: the task list leaves the declined fix and tests open; the plan file is shown under ~",
    { timeout: 90_000 },
    async () => {
      const { out } = await runDemo("--answer", "reject");
      const lastTasks = out.slice(out.lastIndexOf("◆ Tasks"));
      expect(lastTasks).toMatch(/☑ Find the bug in add\(\)/);
      expect(lastTasks).toMatch(/☐ Fix add\(\)/);
      expect(lastTasks).toMatch(/☐ Run the tests/);
      expect(out).toMatch(/● Write ~\/\.claude\/plans\/[\w-]+\.md/);
      expect(out).not.toMatch(/\/tmp\/[^\s]*\/plans\//);
    },
  );

  it("the agent's environment turns npm's update notice off (npm test output stays the project's)", () => {
    const env = offlineEnv("http://127.0.0.1:1", { home: "/h", configDir: "/h/.claude" });
    expect(env.npm_config_update_notifier).toBe("false");
  });

  it("npm run demo builds only when dist/ is older than its sources", () => {
    expect(isStale([1, 5], [6, 7])).toBe(false);
    expect(isStale([1, 8], [6, 7])).toBe(true);
    expect(isStale([1], [6, undefined])).toBe(true);
  });
});
