// Helpers for the end-to-end tests of sessions that last (load, resume, list, close,
// delete, fork), recovery and concurrency. Built on the shared harness in ../e2e/.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RequestError, type SessionNotification } from "@agentclientprotocol/sdk";
import type { RecordedRequest } from "../../../scripted-api/index.js";
import {
  poll,
  startE2E,
  type E2E,
  type E2EOptions,
  type MarkedProcess,
  type WireEntry,
  type WireMessage,
} from "../e2e/index.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** TodoWrite instead of the Task* tools (see the e2e README's facts about Claude Code). */
export const TODO_WRITE_ENV = {
  CLAUDE_CODE_ENABLE_TODO_TOOLS: "1",
  CLAUDE_CODE_ENABLE_TASKS: "false",
} as const;

/** The JSON-RPC error codes these tests pin. */
export const RESOURCE_NOT_FOUND = -32002;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/**
 * Quits the agent as an editor does (stdin closed) and waits until it and its Claude Code
 * processes are gone. Its HOME, config dir and cwd stay until the harness is stopped.
 */
export async function quitAgent(e2e: E2E): Promise<void> {
  e2e.closeStdin();
  await e2e.agent.exited;
  const survivors = await e2e.survivors(5_000);
  if (survivors.length > 0) {
    throw new Error(`processes outlived the agent: ${JSON.stringify(survivors)}`);
  }
}

/**
 * A fresh agent process on the first run's HOME and CLAUDE_CONFIG_DIR (so it sees the same
 * saved conversations): an editor reopening after a restart. The first agent quits first.
 * Sessions of the first run live in `first.cwd`; the new run has its own API and script.
 */
export async function reopenAgent(first: E2E, options: E2EOptions = {}): Promise<E2E> {
  await quitAgent(first);
  return startE2E({
    ...options,
    env: { ...options.env, HOME: first.home, CLAUDE_CONFIG_DIR: first.configDir },
  });
}

/** The run's Claude Code processes (children of the agent speaking stream-json). */
export async function claudeProcesses(e2e: E2E): Promise<MarkedProcess[]> {
  return (await e2e.processes()).filter(
    (p) => p.pid !== e2e.agent.pid && p.command.includes("--output-format stream-json"),
  );
}

/** The Claude Code process serving a Claude session (started with it or resuming it). */
export async function claudeProcessOf(
  e2e: E2E,
  sessionId: string,
): Promise<MarkedProcess | undefined> {
  return (await claudeProcesses(e2e)).find(
    (p) =>
      p.command.includes(`--session-id=${sessionId}`) ||
      p.command.includes(`--resume=${sessionId}`),
  );
}

/** Sends `signal` to the Claude Code process of a Claude session; resolves with its pid. */
export async function signalClaude(
  e2e: E2E,
  sessionId: string,
  signal: "SIGKILL" | "SIGSTOP",
): Promise<number> {
  const claude = await claudeProcessOf(e2e, sessionId);
  if (!claude) throw new Error(`no Claude Code process for ${sessionId}\n${e2e.report()}`);
  process.kill(claude.pid, signal); // ours: found by this run's marker and session id
  return claude.pid;
}

/** What a failed request rejected with (the test fails if it succeeded). */
export async function failure(request: Promise<unknown>): Promise<RequestError> {
  const outcome = await request.then(
    (value) => new Error(`the request did not fail: ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  if (!(outcome instanceof RequestError)) throw outcome;
  return outcome;
}

/** Waits until the process `pid` is gone; true when it went within `timeoutMs`. */
export async function processEnds(e2e: E2E, pid: number, timeoutMs = 5_000): Promise<boolean> {
  const gone = await poll(
    async () => ((await e2e.processes()).some((p) => p.pid === pid) ? undefined : true),
    timeoutMs,
  );
  return gone === true;
}

function blocksOf(content: unknown): Record<string, unknown>[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function textOfBlocks(content: unknown): string {
  return blocksOf(content)
    .map((b) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("\n");
}

const REMINDER = /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/;

/**
 * The conversation the model was sent, one line per block, for order-aware assertions:
 * `user: <text>`, `assistant: <text>`, `assistant thinking: <text>`,
 * `assistant tool_use <name> <id>`, `user tool_result <id>: <text>`. System reminders
 * and `role: "system"` messages are left out.
 */
export function conversation(request: RecordedRequest): string[] {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  const lines: string[] = [];
  for (const message of body.messages.filter(isRecord)) {
    const role = message.role;
    if (role !== "user" && role !== "assistant") continue;
    for (const block of blocksOf(message.content)) {
      if (block.type === "text" && typeof block.text === "string") {
        if (!REMINDER.test(block.text)) lines.push(`${role}: ${block.text}`);
      } else if (block.type === "thinking" && typeof block.thinking === "string") {
        lines.push(`${role} thinking: ${block.thinking}`);
      } else if (block.type === "tool_use") {
        lines.push(`${role} tool_use ${String(block.name)} ${String(block.id)}`);
      } else if (block.type === "tool_result") {
        lines.push(
          `${role} tool_result ${String(block.tool_use_id)}: ${textOfBlocks(block.content)}`,
        );
      }
    }
  }
  return lines;
}

/** Whether a conversation line is the expected item: same start, or same role and containing its text. */
function matches(line: string, item: string): boolean {
  if (line.startsWith(item)) return true;
  const colon = item.indexOf(": ");
  if (colon < 0) return false;
  // Claude Code may join consecutive user messages into one block.
  return line.startsWith(item.slice(0, colon + 2)) && line.includes(item.slice(colon + 2));
}

/**
 * The `expected` items found in `lines` in that order (each after the previous one). An
 * item matches a line that starts with it, or (for `role: text` items) a line of that role
 * containing the text. Equal to `expected` when all are there in order; otherwise the
 * assertion diff shows the first one missing.
 */
export function inOrder(lines: readonly string[], expected: readonly string[]): string[] {
  const found: string[] = [];
  let from = 0;
  for (const item of expected) {
    const at = lines.findIndex((line, i) => i >= from && matches(line, item));
    if (at < 0) break;
    found.push(item);
    from = at;
  }
  return found;
}

/** A request on the wire, its response, and the session's updates sent between the two. */
export interface AnsweredRequest {
  request: WireEntry;
  response: WireEntry;
  /** `session/update` notifications of `sessionId` between request and response, in order. */
  updatesBefore: Array<SessionNotification & { entry: WireEntry }>;
}

/** The last `method` request sent to the agent and what the agent sent until it answered. */
export function answered(e2e: E2E, method: string, sessionId: string): AnsweredRequest {
  const request = e2e.transcript.calls(method, "to-agent").at(-1);
  const response = request && e2e.transcript.responseTo(request);
  if (!request || !response) throw new Error(`no answered ${method} on the wire`);
  const updatesBefore = e2e.transcript
    .sessionUpdates()
    .filter(
      (n) => n.sessionId === sessionId && n.entry.seq > request.seq && n.entry.seq < response.seq,
    );
  return { request, response, updatesBefore };
}

/** Sends a raw request and returns the agent's error (undefined when it succeeded). */
export async function rawError(
  e2e: E2E,
  method: string,
  params: unknown,
): Promise<WireMessage["error"]> {
  return (await e2e.rawRequest(method, params)).error;
}

/** Claude Code's transcript file of a session, found under `<config>/projects/*`. */
export async function transcriptFile(
  configDir: string,
  sessionId: string,
): Promise<string | undefined> {
  const projects = join(configDir, "projects");
  for (const project of await readdir(projects).catch((): string[] => [])) {
    const files = await readdir(join(projects, project)).catch((): string[] => []);
    if (files.includes(`${sessionId}.jsonl`)) return join(projects, project, `${sessionId}.jsonl`);
  }
  return undefined;
}

/** Waits until Claude Code has saved `text` in the session's transcript; false if it never did. */
export async function transcriptHas(
  e2e: E2E,
  sessionId: string,
  text: string,
  timeoutMs = 5_000,
): Promise<boolean> {
  const saved = await poll(async () => {
    const file = await transcriptFile(e2e.configDir, sessionId);
    const content = file ? await readFile(file, "utf8").catch(() => "") : "";
    return content.includes(text) ? true : undefined;
  }, timeoutMs);
  return saved === true;
}

/**
 * Copies a real transcript under a new session id (every occurrence of the id replaced):
 * a cheap way to have many saved conversations that Claude Code itself wrote.
 */
export async function cloneTranscript(file: string, sessionId: string, newId: string) {
  const text = await readFile(file, "utf8");
  await writeFile(
    file.replace(`${sessionId}.jsonl`, `${newId}.jsonl`),
    text.replaceAll(sessionId, newId),
  );
}

/** Claude Code's session-title side request (a JSON schema asking for a title). */
export function isTitleRequest(request: RecordedRequest): boolean {
  const body = request.body;
  if (!isRecord(body) || !isRecord(body.output_config)) return false;
  const format = body.output_config.format;
  return (
    isRecord(format) && format.type === "json_schema" && JSON.stringify(format).includes("title")
  );
}
