// The built client as a process: what it says when its agent or its arguments are wrong, and
// that it takes its agent down with it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { alive } from "../support/pids.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const CLIENT = join(REPO, "dist", "client", "index.js");

interface Run {
  code: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
}

function client(args: readonly string[]): Run {
  if (!existsSync(CLIENT)) throw new Error(`${CLIENT} is missing: run \`npm run build\` first.`);
  const child = spawn(process.execPath, [CLIENT, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end("hello\n");
  let [out, err] = ["", ""];
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return {
    code: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
    stdout: () => out,
    stderr: () => err,
    kill: (signal) => child.kill(signal),
  };
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("the client process", () => {
  it("an agent that exits at once: says it exited and how, not write EPIPE", async () => {
    const run = client(["--", "sh", "-c", "echo 'agent: no API key' >&2; exit 3"]);
    expect(await run.code).toBe(1);
    expect(run.stdout()).toContain("The agent exited (code 3)");
    expect(run.stdout()).toContain("agent: no API key");
    expect(run.stdout()).not.toContain("EPIPE");
  });

  it("--cwd that does not exist: names the path", async () => {
    const run = client(["--cwd", "/nonexistent/project", "--", "true"]);
    expect(await run.code).toBe(2);
    expect(run.stderr()).toContain("--cwd /nonexistent/project: no such directory");
  });

  it("on SIGTERM it stops its agent too (no orphan)", { timeout: 20_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "claude-agent-acp-client-bin-"));
    dirs.push(dir);
    const pidFile = join(dir, "agent.pid");
    // An agent that never answers, and ignores its stdin closing.
    const hang = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const run = client(["--", process.execPath, "-e", hang]);
    while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(await readFile(pidFile, "utf8"));
    expect(alive(pid)).toBe(true);
    run.kill("SIGTERM");
    expect(await run.code).toBe(143);
    expect(alive(pid)).toBe(false);
  });
});
