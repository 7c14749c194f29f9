// A new session of a client that connects with a given handshake (AIR's, Zed's...), in process,
// on a fake Claude Code, in a fresh real cwd; closed when the test finishes.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InitializeRequest } from "@agentclientprotocol/sdk";
import { onTestFinished } from "vitest";
import { fakeClaude } from "./fake-claude.js";
import { connectInProcess, type InProcessOptions } from "./in-process.js";

export async function handshakeSession(
  handshake: InitializeRequest,
  options: Omit<InProcessOptions, "startQuery" | "clientCapabilities"> = {},
) {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "acp-handshake-")));
  const claude = fakeClaude();
  const harness = await connectInProcess({
    ...options,
    startQuery: claude.startQuery,
    clientCapabilities: handshake.clientCapabilities ?? {},
  });
  onTestFinished(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  return { ...harness, cwd, sessionId, query: claude.started.at(-1)! };
}
