// End-to-end: how the built agent answers malformed and invalid requests on the wire, and a
// broken Claude Code setup. Each test has its own harness (temp HOME, config dir and cwd).
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shareAgents, startE2E, stopAllE2E } from "../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

describe("malformed and invalid requests", () => {
  it("answers a parse error, an unknown method and an unknown session with JSON-RPC errors, and keeps serving", async () => {
    const e2e = await startE2E();

    const from = e2e.transcript.entries.length;
    await e2e.sendRaw("{this is not json\n");
    const parseError = await e2e.transcript.waitFor(
      (e) => e.direction === "from-agent" && e.message?.error !== undefined,
      { from, what: "the parse error" },
    );
    expect(parseError.message).toMatchObject({ id: null, error: { code: -32700 } });

    const unknownMethod = await e2e.rawRequest("no_such/method", {});
    expect(unknownMethod.error?.code).toBe(-32601);

    const unknownSession = await e2e.rawRequest("session/prompt", {
      sessionId: "no-such-session",
      prompt: [{ type: "text", text: "Hello?" }],
    });
    expect(unknownSession.error?.code).toBe(-32002);

    const { sessionId } = await e2e.newSession();
    expect(sessionId).toEqual(expect.any(String));
  });

  it("rejects session/new with a relative or missing cwd as invalid params", async () => {
    const e2e = await startE2E();

    await expect(e2e.newSession({ cwd: "relative/dir" })).rejects.toMatchObject({ code: -32602 });
    await expect(e2e.newSession({ cwd: join(e2e.cwd, "missing") })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("fails session/new with a message naming CLAUDE_CODE_EXECUTABLE when it points at a missing file", async () => {
    const missing = "/nonexistent/e2e/claude";
    const e2e = await startE2E({ env: { CLAUDE_CODE_EXECUTABLE: missing } });

    const error = await e2e.newSession().then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(Error);
    const message = error instanceof Error ? error.message : "";
    expect(message).toContain("CLAUDE_CODE_EXECUTABLE");
    expect(message).toContain(missing);
  });
});
