// The order of a cold session's start: session/new's answer goes out, then the process
// started early is spawned, and only then does the Claude SDK load. On node 22 and later
// an import compiles and runs the SDK in one blocking step, so loading it any sooner held
// back both the answer and the early start by the length of that load.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ClaudeProcess } from "../../../claude/child-process.js";
import { EarlyStarts } from "../../../claude/early-start.js";
import { startColdQuery } from "../../../claude/sdk-query.js";
import { nextTurn } from "../../../util/next-turn.js";

const events: string[] = [];

vi.mock("../../../claude/sdk-loader.js", () => ({
  claudeSdkLoaded: () => false,
  // Never settles: what follows the load is not what these tests are about.
  claudeSdk: () => {
    events.push("the SDK loads");
    return new Promise(() => undefined);
  },
}));

afterEach(() => {
  events.length = 0;
  vi.restoreAllMocks();
});

function start(earlyStarts?: EarlyStarts) {
  return startColdQuery(
    {
      cwd: process.cwd(),
      sessionId: "11111111-1111-4111-8111-111111111111",
      canUseTool: () => Promise.resolve({ behavior: "deny", message: "no" }),
      executable: "/bin/sh",
      env: { PATH: process.env.PATH },
    },
    earlyStarts,
  );
}

/** A session/new handler: it starts the query, then its answer is written (as stdout does). */
function answerAfterStart(earlyStarts?: EarlyStarts) {
  const query = start(earlyStarts);
  setImmediate(() => events.push("session/new's answer is written"));
  return query;
}

describe("a cold session's start", () => {
  it("loads the SDK only after session/new's answer is written and the early process is spawned", async () => {
    const earlyStarts = new EarlyStarts();
    vi.spyOn(earlyStarts, "expected").mockReturnValue({
      command: "/bin/sh",
      args: ["-c", "sleep 5"],
      env: { PATH: process.env.PATH },
    });
    vi.spyOn(ClaudeProcess.prototype, "startEarly").mockImplementation(() => {
      events.push("the early process is spawned");
      return undefined;
    });
    const query = answerAfterStart(earlyStarts);
    for (let i = 0; i < 4; i++) await nextTurn();
    expect(events).toEqual([
      "session/new's answer is written",
      "the early process is spawned",
      "the SDK loads",
    ]);
    query.close();
  });

  it("without early starts, still loads the SDK after session/new's answer", async () => {
    const query = answerAfterStart();
    for (let i = 0; i < 4; i++) await nextTurn();
    expect(events).toEqual(["session/new's answer is written", "the SDK loads"]);
    query.close();
  });

  it("does not load the SDK nor spawn anything for a query closed before its turn came", async () => {
    const startEarly = vi.spyOn(ClaudeProcess.prototype, "startEarly");
    const query = start(new EarlyStarts());
    query.close();
    for (let i = 0; i < 4; i++) await nextTurn();
    expect(events).toEqual([]);
    expect(startEarly).not.toHaveBeenCalled();
  });
});
