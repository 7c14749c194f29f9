// One agent per test file for the tests that start it the same way. Starting the agent and its
// first load of the Claude Agent SDK cost about 0.6 s of CPU; a file that shares pays it once.
// Each test still opens its own sessions (its own Claude Code), in a cwd of its own, against a
// scenario, permission policy, request log, transcript and update log that start empty.
import { readFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { E2EOptions } from "./harness.js";
import type { PermissionRecord } from "./permissions.js";
import type { WireEntry } from "./transcript.js";

/** What a shared agent must offer: the parts of `E2E` the pool drives. */
export interface Shareable {
  /** False once the agent exited, was stopped for good, or a test on it failed. */
  reusable(): boolean;
  shutdown(): Promise<unknown>;
}

let sharing = false;
let sharingSessions = false;
const idle = new Map<string, Shareable>();
const all = new Set<Shareable>();

/**
 * Call once at the top of a test file (outside any test): from then on `startE2E` reuses the
 * file's agent for tests that start it with the same env and client capabilities. Only for
 * files whose tests do not look at the agent's processes, its whole log, or what a user-level
 * setting written by an earlier test would change.
 *
 * With `sessions: true` the tests also share one session (one Claude Code) and its cwd:
 * `newSession()` without arguments answers with it. For tests that prove what one turn does,
 * not what a session starts with; a test that changed the session (a mode, a rule kept for the
 * session, a turn that did not end) hands the next test a new one. Tool use ids must then be
 * unique in the file, as the model's are in a session.
 */
export function shareAgents(options: { sessions?: boolean } = {}): void {
  sharing = true;
  sharingSessions = options.sessions === true;
  afterAll(async () => {
    sharing = false;
    sharingSessions = false;
    idle.clear();
    await Promise.all([...all].map((agent) => agent.shutdown()));
    all.clear();
  });
}

/** The key under which a run may be shared, or undefined when it must have its own agent. */
export function sharingKey(options: E2EOptions): string | undefined {
  if (!sharing || options.ownAgent || options.extendClient || options.initialize === false) {
    return undefined;
  }
  // An env entry set to undefined removes a default: it must key apart from no entry at all.
  const keep = (_key: string, value: unknown) => (value === undefined ? null : value);
  return JSON.stringify(
    [options.env ?? {}, options.clientCapabilities ?? {}, options.cursor],
    keep,
  );
}

/** An idle shared agent for `key`, taken out of the pool until its test ends. */
export function takeShared<T extends Shareable>(key: string): T | undefined {
  const agent = idle.get(key);
  idle.delete(key);
  return agent?.reusable() ? (agent as T) : undefined;
}

export function addShared(agent: Shareable): void {
  all.add(agent);
}

/** Back in the pool after its test, when it is still fit to serve the next one. */
export function returnShared(key: string, agent: Shareable): void {
  if (sharing && agent.reusable()) idle.set(key, agent);
}

/** The sessions a test opened: those `session/new` or `fork` answered and those it loaded or resumed. */
export function sessionsOpened(entries: readonly WireEntry[]): string[] {
  const ids = new Set<string>();
  for (const { direction, message } of entries) {
    const result = message?.result as { sessionId?: unknown } | undefined;
    if (direction === "from-agent" && typeof result?.sessionId === "string") {
      ids.add(result.sessionId);
    }
    const params = message?.params as { sessionId?: unknown } | undefined;
    const opens = message?.method === "session/load" || message?.method === "session/resume";
    if (direction === "to-agent" && opens && typeof params?.sessionId === "string") {
      ids.add(params.sessionId);
    }
  }
  return [...ids];
}

export function sharesSessions(): boolean {
  return sharingSessions;
}

/**
 * Whether the shared session is as a new one would be for the next test's purposes: the test
 * only prompted it (and perhaps cancelled), every prompt was answered, every permission answer
 * chose a one-time option (by its kind) or none, and the mode never changed.
 */
export function sessionStillFresh(
  entries: readonly WireEntry[],
  sessionId: string,
  answers: readonly (string | undefined)[],
  modeChanged: boolean,
): boolean {
  const oneTime = (kind: string | undefined) =>
    kind === undefined || kind === "allow_once" || kind === "reject_once";
  if (modeChanged || !answers.every(oneTime)) return false;
  const pending = new Set<unknown>();
  for (const { direction, message } of entries) {
    if (direction === "to-agent") {
      const params = message?.params as { sessionId?: unknown } | undefined;
      if (params?.sessionId !== sessionId) continue;
      if (message?.method === "session/prompt") pending.add(message.id);
      else if (message?.method !== "session/cancel") return false;
    } else if (message?.method === undefined && pending.has(message?.id)) {
      if (message?.error !== undefined) return false;
      pending.delete(message?.id);
    }
  }
  return pending.size === 0;
}

/** The kinds of the options the client chose (undefined: no option chosen). */
export function chosenKinds(records: readonly PermissionRecord[]): (string | undefined)[] {
  return records.map(({ request, answer }) => {
    const outcome = answer?.outcome;
    if (outcome?.outcome !== "selected") return undefined;
    return request.options.find((o) => o.optionId === outcome.optionId)?.kind ?? "unknown";
  });
}

/** The tool use ids the tests of one shared session used. */
export class ToolIdLedger {
  private readonly used = new Set<string>();

  /** Records a test's ids; returns those an earlier test used. */
  note(ids: readonly string[]): string[] {
    const reused = ids.filter((id) => this.used.has(id));
    for (const id of ids) this.used.add(id);
    return reused;
  }
}

/** The user's settings file as it is now ("" when there is none). */
export function userSettings(configDir: string): string {
  try {
    return readFileSync(join(configDir, "settings.json"), "utf8");
  } catch {
    return "";
  }
}

export async function emptyDirectory(dir: string): Promise<void> {
  const left = await readdir(dir);
  await Promise.all(left.map((name) => rm(join(dir, name), { recursive: true })));
}
