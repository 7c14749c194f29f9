// The terminal client in a real terminal (tmux): keys in, the screen captured. The built
// client (dist/client/index.js) runs the built agent, real Claude Code and a scripted model.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedApi, toolResults, type ScriptedApi } from "../../scripted-api/index.js";
import { Tmux } from "../support/tmux.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const CLIENT = join(REPO, "dist", "client", "index.js");
const AGENT = join(REPO, "dist", "index.js");
const TEST_ID = "toolu_tmux_test";

interface World {
  root: string;
  cwd: string;
  api: ScriptedApi;
  tmux: Tmux;
}

const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.tmux.kill();
    await world.api.close();
    await rm(world.root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  }
});

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A project whose `npm test` leaves ran.txt behind; a model that asks to run it; the client
 * running in tmux with only the environment it needs (temp HOME and CLAUDE_CONFIG_DIR).
 */
async function startWorld(): Promise<World> {
  for (const built of [CLIENT, AGENT]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first.`);
  }
  const root = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-client-tmux-")));
  const home = join(root, "home");
  const cwd = join(root, "project");
  await mkdir(join(home, ".claude"), { recursive: true });
  await mkdir(cwd);
  await writeFile(
    join(cwd, "package.json"),
    JSON.stringify({ name: "t", private: true, scripts: { test: "node test.js" } }),
  );
  await writeFile(join(cwd, "test.js"), `require("fs").writeFileSync("ran.txt", "yes\\n");\n`);
  const api = await startScriptedApi([
    {
      content: [
        { type: "text", text: "I'll run the tests." },
        {
          type: "tool_use",
          id: TEST_ID,
          name: "Bash",
          input: { command: "npm test", description: "Run the tests" },
        },
      ],
    },
    (request) => {
      const result = toolResults(request).find((r) => r.tool_use_id === TEST_ID);
      return {
        content: [
          { type: "text", text: result?.is_error ? "They did not run." : "The tests ran." },
        ],
      };
    },
  ]);
  const tmux = new Tmux();
  const world = { root, cwd, api, tmux };
  worlds.push(world);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: "0",
    CLAUDE_AGENT_ACP_LOG: "warn",
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
  const client = [
    "env",
    "-i",
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    process.execPath,
    CLIENT,
    "--cwd",
    cwd,
    "Run the tests.",
    "--",
    process.execPath,
    AGENT,
  ];
  // The pane stays after the client exits, with its exit code on the screen.
  await tmux.start(`${client.map(quote).join(" ")}; echo "[client exited $?]"; sleep 600`);
  return world;
}

describe("the client in a terminal", () => {
  it(
    "chooses a permission option with the arrow keys and Enter: the durable rule lands and the command runs",
    { timeout: 90_000 },
    async () => {
      const { tmux, cwd } = await startWorld();
      await tmux.waitFor(/❯ 1\. Yes\n[\s\S]*Esc to cancel/);

      await tmux.keys("Down");
      await tmux.waitFor(/❯ 2\. Yes, and don't ask again for npm test commands in this project/);
      await tmux.keys("Enter");
      const screen = await tmux.waitFor(/\[client exited \d+\]/);

      expect(screen).toContain("╭─ Permission: npm test");
      expect(screen).toContain(
        "╰─ ✓ Yes, and don't ask again for npm test commands in this project",
      );
      expect(screen).not.toContain("Esc to cancel"); // the menu was replaced by the answer
      expect(screen).toContain("The tests ran.");
      expect(screen).toContain("■ Turn ended (end_turn)");
      expect(screen).toContain("[client exited 0]");
      expect(await readFile(join(cwd, "ran.txt"), "utf8")).toBe("yes\n");
      const settings = await readFile(join(cwd, ".claude", "settings.local.json"), "utf8");
      expect(settings).toMatch(/Bash\(npm test[ :]\*\)/);
    },
  );

  it(
    "Esc cancels the request and the turn: the command does not run",
    { timeout: 90_000 },
    async () => {
      const { tmux, cwd } = await startWorld();
      await tmux.waitFor(/Esc to cancel/);

      await tmux.keys("Escape");
      const screen = await tmux.waitFor(/\[client exited \d+\]/);

      expect(screen).toContain("⊘ cancelled (Esc)");
      expect(screen).toContain("■ Turn ended (cancelled)");
      expect(screen).toContain("[client exited 0]");
      expect(existsSync(join(cwd, "ran.txt"))).toBe(false);
      expect(existsSync(join(cwd, ".claude", "settings.local.json"))).toBe(false);
    },
  );
});

/** Processes whose environment holds `entry` (a run's own TMPDIR). */
async function processesWith(entry: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
    if (environ.split("\0").includes(entry)) found.push(pid);
  }
  return found;
}

describe("the demo in a terminal that closes", () => {
  it(
    "closing the terminal mid-demo removes its temporary project and stops the agent and Claude Code",
    { timeout: 90_000 },
    async () => {
      const tmp = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-demo-hup-")));
      const tmux = new Tmux();
      const env = [`PATH=${process.env.PATH ?? "/usr/bin:/bin"}`, `TMPDIR=${tmp}`];
      const demo = ["env", "-i", ...env, "TERM=xterm-256color", "LANG=C.UTF-8"];
      await tmux.start(
        `${[...demo, process.execPath, join(REPO, "dist", "demo", "index.js")].map(quote).join(" ")}; sleep 600`,
        { columns: 110, rows: 40 },
        REPO,
      );
      try {
        // The first permission box is open (the banner names the keys too).
        const screen = await tmux.waitFor(/❯ 1\. /, 60_000);
        const project = /Project: (\S+)/.exec(screen)?.[1];
        expect(project?.startsWith(tmp)).toBe(true);
        expect(existsSync(project!)).toBe(true);
      } finally {
        await tmux.kill(); // the terminal closes: SIGHUP
      }
      // Claude Code keeps its own files in TMPDIR (claude-<uid>/, cc-socks): the demo's go.
      const demoDirs = async () =>
        (await readdir(tmp)).filter((name) => name.startsWith("claude-agent-acp-demo-"));
      await expect.poll(demoDirs, { timeout: 10_000 }).toEqual([]);
      await expect.poll(() => processesWith(`TMPDIR=${tmp}`), { timeout: 10_000 }).toEqual([]);
      await rm(tmp, { recursive: true, force: true });
    },
  );
});
