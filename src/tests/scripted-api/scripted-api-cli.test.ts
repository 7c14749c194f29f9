import { spawn, spawnSync } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../scripted-api/cli.ts", import.meta.url));
const NODE_ARGS = ["--import", "tsx", CLI];

let child: ChildProcessWithoutNullStreams | undefined;
let dir: string | undefined;

afterEach(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = "";
    stream.setEncoding("utf8");
    stream.on("data", (d: string) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    stream.on("end", () => reject(new Error(`stream ended before a line: ${buf}`)));
  });
}

describe("scripted-api CLI", { timeout: 60_000 }, () => {
  it("prints ANTHROPIC_BASE_URL, serves the JSON scenario, logs kind and step on stderr, stops on SIGTERM", async () => {
    dir = await mkdtemp(join(tmpdir(), "scripted-api-cli-"));
    const file = join(dir, "scenario.json");
    await writeFile(file, JSON.stringify([{ content: [{ type: "text", text: "from the cli" }] }]));
    child = spawn(process.execPath, [...NODE_ARGS, "--cursor", "session", file]);
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));

    const line = await firstLine(child.stdout);
    expect(line).toMatch(/^ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice("ANTHROPIC_BASE_URL=".length);
    const res = await fetch(`${url}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "x-claude-code-session-id": "abc12345-0000" },
      body: JSON.stringify({
        model: "m",
        max_tokens: 10,
        tools: [{ name: "Bash", input_schema: { type: "object" } }],
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(await res.json()).toMatchObject({ content: [{ type: "text", text: "from the cli" }] });

    const exited = new Promise<number | null>((r) => child?.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/#0 POST \/v1\/messages main step=0 session=abc12345/);
  });

  it("--help prints usage and exits 0; a missing scenario argument exits 2", () => {
    const help = spawnSync(process.execPath, [...NODE_ARGS, "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: scripted-api/);
    const bad = spawnSync(process.execPath, NODE_ARGS, { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Usage/);
  });

  it("exits 1 with the zod problems for an invalid scenario file", async () => {
    dir = await mkdtemp(join(tmpdir(), "scripted-api-cli-"));
    const file = join(dir, "bad.json");
    await writeFile(file, JSON.stringify({ turns: [{ content: [] }] }));
    const run = spawnSync(process.execPath, [...NODE_ARGS, file], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/invalid scenario[\s\S]*turns\.0\.content/);
  });
});
