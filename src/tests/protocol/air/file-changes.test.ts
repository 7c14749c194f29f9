// AIR's agentFileChangeReport (issue 52): a prompt of a client that declared it asks for a
// report with `_meta.jetbrains.air.agentFileChangeReportRequest {version: 1, requestId}`, and one
// session_info_update answers it after the turn, before the prompt's answer: the files Claude
// Code's checkpoints say changed since the turn's prompt, inside the session's folders, or why
// there are none. Any other request, client or repeated id gets no report.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  methods,
  type InitializeRequest,
  type PromptResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { FilesRewound } from "../../../claude/query.js";
import { ACPX, AIR, ZED } from "../../support/client-handshakes.js";
import { assistant, result } from "../../support/fake-claude.js";
import { handshakeSession } from "../../support/handshake-session.js";

const AIR_REPORTS: InitializeRequest = {
  ...AIR,
  clientCapabilities: {
    ...AIR.clientCapabilities,
    _meta: { jetbrains: { air: { version: 1, capabilities: ["agentFileChangeReport"] } } },
  },
};

const asking = (requestId: unknown, extra: Record<string, unknown> = {}) => ({
  jetbrains: { air: { agentFileChangeReportRequest: { version: 1, requestId, ...extra } } },
});

/** A client of this handshake, whose fake Claude Code's checkpoints answer `checkpoints`. */
async function connect(
  handshake: InitializeRequest,
  checkpoints: (id: string, dryRun: boolean) => Promise<FilesRewound>,
) {
  const harness = await handshakeSession(handshake);
  const { sessionId, query } = harness;
  const asked: Array<[string, boolean]> = [];
  query.rewindFiles = (id, dryRun) => {
    asked.push([id, dryRun]);
    return checkpoints(id, dryRun);
  };
  /** A prompt, answered by Claude Code with `end` (a result by default). */
  const prompt = async (meta: unknown, end: () => void = () => query.emit(result())) => {
    const sent = query.sent.length;
    const answer = harness.agent
      .request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Edit it." }],
        _meta: meta as Record<string, unknown>,
      })
      .then(
        (response: PromptResponse) => ({ response, at: harness.updates.length }),
        (error: unknown) => ({ error, at: harness.updates.length }),
      );
    await query.waitForSent(sent + 1);
    end();
    return answer;
  };
  return { ...harness, asked, prompt };
}

/** The reports the client got, each with its place among the updates. */
const reports = (updates: SessionNotification[]) =>
  updates.flatMap((n, at) => {
    const air = (n.update._meta as { jetbrains?: { air?: Record<string, unknown> } } | undefined)
      ?.jetbrains?.air;
    return air?.agentFileChangeReport ? [{ at, report: air.agentFileChangeReport }] : [];
  });

describe("AIR's agentFileChangeReport", () => {
  it("reports the files changed since the turn's prompt, inside the session's folders, before the prompt's answer", async () => {
    let cwd = "";
    const harness = await connect(AIR_REPORTS, () =>
      Promise.resolve({
        canRewind: true,
        filesChanged: [
          join(cwd, "src", "app.ts"),
          "notes.md",
          join(cwd, "src", "app.ts"),
          "/etc/elsewhere.conf",
          join(cwd, "bad\u0007name"),
        ],
      }),
    );
    cwd = harness.cwd;
    mkdirSync(join(cwd, "src"));
    const { at } = await harness.prompt(asking("turn-1"));
    const [only, ...more] = reports(harness.updates);
    expect(more).toEqual([]);
    expect(only!.at).toBeLessThan(at);
    expect(only!.report).toEqual({
      version: 1,
      requestId: "turn-1",
      status: "reported",
      paths: [join(cwd, "src", "app.ts"), join(cwd, "notes.md")],
      declaredComplete: false,
      truncated: true,
    });
    const sent = harness.query.sent[0]!;
    expect(harness.asked).toEqual([[sent.uuid, true]]);
  });

  it("a cancelled turn, a failed one, or checkpoints that cannot say are reported unavailable, with why", async () => {
    const cancelled = await connect(AIR_REPORTS, () => Promise.resolve({ canRewind: true }));
    await cancelled.prompt(asking("c"), () => {
      void cancelled.agent.notify(methods.agent.session.cancel, {
        sessionId: cancelled.sessionId,
      });
    });
    expect(reports(cancelled.updates).map((r) => r.report)).toMatchObject([
      { requestId: "c", status: "unavailable", reason: "cancelled" },
    ]);
    expect(cancelled.asked).toEqual([]);

    const failed = await connect(AIR_REPORTS, () => Promise.resolve({ canRewind: true }));
    const outcome = await failed.prompt(asking("f"), () => {
      const sentence = "API Error: 529 Overloaded";
      failed.query.emit(
        assistant("m1", [{ type: "text", text: sentence }], { error: "overloaded" }),
      );
      failed.query.emit(result({ isError: true, text: sentence }));
    });
    expect(outcome).toHaveProperty("error");
    expect(reports(failed.updates).map((r) => r.report)).toMatchObject([
      { requestId: "f", status: "unavailable", reason: "providerError" },
    ]);

    const refused = await connect(AIR_REPORTS, () =>
      Promise.resolve({ canRewind: false, error: "no checkpoint" }),
    );
    await refused.prompt(asking("r"));
    expect(reports(refused.updates).map((r) => r.report)).toMatchObject([
      { requestId: "r", status: "unavailable", reason: "invalidOutput" },
    ]);
  });

  it("checkpoints that do not answer within 2 s are reported as a timeout, and the prompt is answered", async () => {
    const harness = await connect(AIR_REPORTS, () => new Promise<FilesRewound>(() => undefined));
    const { response } = (await harness.prompt(asking("slow"))) as { response: PromptResponse };
    expect(response.stopReason).toBe("end_turn");
    expect(reports(harness.updates).map((r) => r.report)).toMatchObject([
      { requestId: "slow", status: "unavailable", reason: "timeout" },
    ]);
  });

  it("no report for a prompt that asks for none, asks in another shape, or repeats an id; nor for Zed or AIR without it", async () => {
    const harness = await connect(AIR_REPORTS, () =>
      Promise.resolve({ canRewind: true, filesChanged: [] }),
    );
    await harness.prompt(undefined);
    await harness.prompt(asking("has space"));
    await harness.prompt(asking("extra", { note: "x" }));
    await harness.prompt({
      jetbrains: { air: { agentFileChangeReportRequest: { version: 2, requestId: "v2" } } },
    });
    await harness.prompt(asking("once"));
    await harness.prompt(asking("once"));
    expect(reports(harness.updates).map((r) => r.report)).toMatchObject([
      { requestId: "once", status: "reported", paths: [] },
    ]);

    for (const handshake of [ZED, ACPX, AIR]) {
      const other = await connect(handshake, () =>
        Promise.resolve({ canRewind: true, filesChanged: [] }),
      );
      await other.prompt(asking("t"));
      expect(reports(other.updates)).toEqual([]);
      expect(other.asked).toEqual([]);
    }
  });
});
