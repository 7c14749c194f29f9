// End-to-end through acpx, a headless ACP client nobody here wrote: its CLI (`acpx exec`)
// drives the built agent, the real Claude Code behind it and the scripted API.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  lastUserText,
  systemText,
  type RecordedRequest,
  type TurnSpec,
} from "../../scripted-api/index.js";
import { isRecord } from "../../util/records.js";
import { acpxRuntime, startAcpx, stopAllAcpx, type AcpxExec } from "../support/acpx/index.js";

// acpx, and a Node it supports, come from the npm registry (or npm's cache) on first use.
beforeAll(() => acpxRuntime(), 300_000);
afterEach(stopAllAcpx);

/** The opening of Claude Code's own system prompt (its `claude_code` preset). */
const CLAUDE_CODE_PROMPT = "You are an agent working with the user toward their goals";

const answer = (text: string): TurnSpec => ({ content: [{ type: "text", text }] });
const bash = (command: string): TurnSpec => ({
  content: [{ type: "tool_use", name: "Bash", input: { command, description: "Run it" } }],
});

/** Exit code and error lines together, so a failure shows what acpx or the agent said. */
const outcome = (run: AcpxExec) => ({ code: run.code, errors: run.output.errors() });
const SUCCESS = { code: 0, errors: [] };

const modelOf = (request: RecordedRequest): unknown =>
  isRecord(request.body) ? request.body.model : undefined;

it("acpx exec sends the prompt through the agent to Claude Code and prints the model's answer", async () => {
  const acpx = await startAcpx({ scenario: [answer("Scripted answer 42.")] });
  const run = await acpx.exec("Say the scripted answer.", ["--approve-all"]);

  expect(outcome(run)).toEqual(SUCCESS);
  expect(run.output.agentText()).toBe("Scripted answer 42.");
  expect(run.output.stopReason()).toBe("end_turn");
  // acpx took the launcher for claude-agent-acp: it sends Claude Code's options (the tests
  // of session options below rely on it).
  expect(run.output.newSessionParams()).toMatchObject({
    _meta: { claudeCode: { options: { settingSources: ["project", "local"] } } },
  });
  // The turn's requests to the model; Claude Code's title request is a side request.
  const [request, ...more] = acpx.api.mainRequests();
  expect(more).toEqual([]);
  expect(lastUserText(request!)).toBe("Say the scripted answer.");
  expect(systemText(request!)).toContain(CLAUDE_CODE_PROMPT);
  expect(await acpx.survivors(5_000)).toEqual([]);
});

it("acpx runs on a Node it declares it supports (22.13 or later), whatever Node runs the agent", async () => {
  const { node } = await acpxRuntime();
  const { stdout } = await promisify(execFile)(node, ["-p", "process.versions.node"]);
  const [major = 0, minor = 0] = stdout.trim().split(".").map(Number);
  expect(major > 22 || (major === 22 && minor >= 13)).toBe(true);
});

it("without --approve-all, acpx refuses a command it would have to ask about (no terminal): nothing runs, exit 5", async () => {
  const acpx = await startAcpx({ scenario: [bash("echo hi > out.txt"), answer("Wrote it.")] });
  const run = await acpx.exec("Write hi to out.txt.");

  expect(run.code).toBe(5);
  expect(run.output.requests("session/request_permission")).toHaveLength(1);
  expect(existsSync(join(acpx.cwd, "out.txt"))).toBe(false);
});

describe("acpx's session options reach Claude Code", () => {
  it("--system-prompt replaces Claude Code's system prompt", async () => {
    const acpx = await startAcpx({ scenario: [answer("I am Zeta.")] });
    const run = await acpx.exec("Who are you?", [
      "--approve-all",
      "--system-prompt",
      "You are Zeta, a test persona.",
    ]);

    expect(outcome(run)).toEqual(SUCCESS);
    const [request] = acpx.api.mainRequests();
    expect(systemText(request!)).toContain("You are Zeta, a test persona.");
    expect(systemText(request!)).not.toContain(CLAUDE_CODE_PROMPT);
  });

  it("--append-system-prompt adds to Claude Code's system prompt", async () => {
    const acpx = await startAcpx({ scenario: [answer("Words flow, five and seven.")] });
    const run = await acpx.exec("Who are you?", [
      "--approve-all",
      "--append-system-prompt",
      "Always answer in haiku.",
    ]);

    expect(outcome(run)).toEqual(SUCCESS);
    const [request] = acpx.api.mainRequests();
    expect(systemText(request!)).toContain(CLAUDE_CODE_PROMPT);
    expect(systemText(request!)).toContain("Always answer in haiku.");
  });

  it("--max-turns 1 ends the turn after one model request, with stop reason max_turn_requests", async () => {
    const acpx = await startAcpx({ scenario: [bash("echo hi"), answer("It said hi.")] });
    const run = await acpx.exec("Run echo hi.", ["--approve-all", "--max-turns", "1"]);

    expect(outcome(run)).toEqual(SUCCESS);
    expect(run.output.stopReason()).toBe("max_turn_requests");
    expect(acpx.api.mainRequests()).toHaveLength(1);
    expect(run.output.agentText()).not.toContain("It said hi.");
  });

  it("--allowed-tools Bash runs a Bash command without asking, where acpx would refuse it", async () => {
    const acpx = await startAcpx({ scenario: [bash("echo hi > out.txt"), answer("Wrote it.")] });
    const run = await acpx.exec("Write hi to out.txt.", ["--allowed-tools", "Bash"]);

    expect(outcome(run)).toEqual(SUCCESS);
    expect(run.output.requests("session/request_permission")).toEqual([]);
    expect(await readFile(join(acpx.cwd, "out.txt"), "utf8")).toBe("hi\n");
  });

  it("--model sends Claude Code's requests to that model", async () => {
    const acpx = await startAcpx({ scenario: [answer("Sonnet here.")] });
    const run = await acpx.exec("Which model?", ["--approve-all", "--model", "claude-sonnet-5-5"]);

    expect(outcome(run)).toEqual(SUCCESS);
    expect(acpx.api.mainRequests().map(modelOf)).toEqual(["claude-sonnet-5-5"]);
  });
});
