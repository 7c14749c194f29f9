// The demo's throwaway world: a temp HOME and Claude config dir, and a tiny project with a bug.
import { rmSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface DemoSandbox {
  /** Holds everything below. */
  root: string;
  /** HOME of the agent and of Claude Code (never the user's). */
  home: string;
  /** CLAUDE_CONFIG_DIR: `<home>/.claude`. */
  configDir: string;
  /** The session's working directory: the project. */
  project: string;
  remove(): Promise<void>;
  /** For the process's exit, where nothing can be awaited. */
  removeNow(): void;
}

export const MATH_JS = `// Arithmetic for the demo project.
export function add(a, b) {
  return a - b;
}

export function multiply(a, b) {
  return a * b;
}
`;

const TEST_JS = `import assert from "node:assert/strict";
import { add, multiply } from "./math.js";

assert.equal(add(2, 3), 5, "add(2, 3) should be 5");
assert.equal(multiply(2, 3), 6, "multiply(2, 3) should be 6");
console.log("✔ add(2, 3) === 5");
console.log("✔ multiply(2, 3) === 6");
`;

const PACKAGE_JSON = `${JSON.stringify(
  { name: "demo-project", private: true, type: "module", scripts: { test: "node test.js" } },
  null,
  2,
)}\n`;

export async function createDemoSandbox(): Promise<DemoSandbox> {
  // realpath: a symlinked temp dir would make Claude Code's paths differ from ours.
  const root = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-demo-")));
  const home = join(root, "home");
  const configDir = join(home, ".claude");
  const project = join(root, "project");
  await mkdir(configDir, { recursive: true });
  await mkdir(project);
  await writeFile(join(project, "package.json"), PACKAGE_JSON);
  await writeFile(join(project, "math.js"), MATH_JS);
  await writeFile(join(project, "test.js"), TEST_JS);
  return {
    root,
    home,
    configDir,
    project,
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 }),
    removeNow: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The agent's environment offline: nothing of the user's Claude or Anthropic settings, and no
 * npm update notice in the output of the project's `npm test` (npm would check the registry).
 */
export function offlineEnv(
  apiUrl: string,
  sandbox: Pick<DemoSandbox, "home" | "configDir">,
): NodeJS.ProcessEnv {
  const keep = ["PATH", "TMPDIR", "LANG", "LC_ALL", "TERM", "SYSTEMROOT"];
  const env: NodeJS.ProcessEnv = {};
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return {
    ...env,
    HOME: sandbox.home,
    CLAUDE_CONFIG_DIR: sandbox.configDir,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: "sk-demo",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: "0",
    CLAUDE_AGENT_ACP_LOG: "warn",
    npm_config_update_notifier: "false",
  };
}
