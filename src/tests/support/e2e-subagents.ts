// Helpers for the end-to-end tests of subagents as child sessions (ACP's subagents RFD).
// The harness's client speaks the stable schema, so the unstable updates are read off
// the wire.
import { execFileSync } from "node:child_process";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { SessionNotification } from "@agentclientprotocol/sdk/unstable";
import { vi } from "vitest";
import type { UnstableClientCapabilities } from "../../acp/unstable-capabilities.js";
import type { E2E, WireEntry } from "./e2e/index.js";

/** The harness's initialize takes stable capabilities; the unstable one goes along. */
const unstable: UnstableClientCapabilities = { subagents: {} };
export const declaresSubagents: ClientCapabilities = { terminal: false, ...unstable };

/**
 * The stable client logs each unstable update it cannot parse; they are read off the
 * wire instead. Call in `beforeEach`.
 */
export function quietUnstableUpdates(): void {
  const error = vi.spyOn(console, "error");
  const log = error.getMockImplementation() ?? (() => undefined);
  error.mockImplementation((...args: unknown[]) => {
    if (args[0] !== "Error handling notification") log(...args);
  });
}

/** Every `session/update` the agent sent, as it crossed the wire, from `seq` on. */
export function wireUpdates(e2e: E2E, seq = -1): Array<SessionNotification & { entry: WireEntry }> {
  return e2e.transcript.entries.flatMap((entry) =>
    entry.direction === "from-agent" &&
    entry.message?.method === "session/update" &&
    entry.seq > seq
      ? [{ ...(entry.message.params as SessionNotification), entry }]
      : [],
  );
}

/** The states the parent reported for its children, in order ("idle end_turn"...). */
export function childStates(updates: SessionNotification[], parent: string): string[] {
  return updates.flatMap(({ sessionId, update }) => {
    if (sessionId !== parent || update.sessionUpdate !== "subagent_update" || !update.state)
      return [];
    const state = update.state as { state: string; stopReason?: string };
    return [[state.state, state.stopReason].filter(Boolean).join(" ")];
  });
}

/** The child sessions the parent announced, in order of their first subagent_update. */
export function childrenOf(updates: SessionNotification[], parent: string): string[] {
  const ids = updates.flatMap(({ sessionId, update }) =>
    sessionId === parent && update.sessionUpdate === "subagent_update" ? [update.sessionId] : [],
  );
  return [...new Set(ids)];
}

export function childOf(e2e: E2E, parent: string): string | undefined {
  return childrenOf(wireUpdates(e2e), parent)[0];
}

/** The `session_message`s one session got, as `from <sender>: <text>`. */
export function sessionMessages(updates: SessionNotification[], session: string): string[] {
  return updates.flatMap(({ sessionId, update }) => {
    if (sessionId !== session || update.sessionUpdate !== "session_message") return [];
    const text = (update.content ?? [])
      .map((c) => (c.type === "text" ? c.text : `<${c.type}>`))
      .join("");
    return [`from ${update.senderSessionId}: ${text}`];
  });
}

/** Waits until the parent's last reported child state is idle. */
export function lastStateIsIdle(e2e: E2E, parent: string, seq = -1): Promise<true | undefined> {
  const last = childStates(wireUpdates(e2e, seq), parent).at(-1);
  return Promise.resolve(last?.startsWith("idle") || undefined);
}

/** Makes `dir` a git repository with one commit (a subagent may get a worktree of it). */
export function gitRepository(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  git("init", "-q");
  git("commit", "-q", "--allow-empty", "-m", "init");
}

/** The `cwd` the parent reported for a child, first as it was announced, then updated. */
export function childCwds(updates: SessionNotification[], parent: string, child: string): string[] {
  return updates.flatMap(({ sessionId, update }) =>
    sessionId === parent &&
    update.sessionUpdate === "subagent_update" &&
    update.sessionId === child &&
    update.cwd
      ? [update.cwd]
      : [],
  );
}
