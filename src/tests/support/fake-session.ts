import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { fakeClaude } from "./fake-claude.js";
import { connectInProcess, type InProcessOptions } from "./in-process.js";

let cwd: string | undefined;

/**
 * One session of the in-process agent on a scripted fake Claude Code, closed when the test
 * ends: the client side, the fake's query and the session id.
 */
export async function fakeSession(options: Partial<InProcessOptions> = {}) {
  cwd ??= mkdtempSync(join(tmpdir(), "fake-session-"));
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery, ...options });
  onTestFinished(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  return { ...harness, claude, query: claude.started.at(-1)!, sessionId };
}
