// JetBrains AIR's session index (issue 52): negotiated by `sessionIndex` in initialize, it gives
// AIR a bounded session/list with AIR's row fields, `_session/batch_get`, rename, archive and
// unarchive, and a subscription to a directory's listing. A client that did not declare it
// (Zed, the registry, AIR without the index) gets none of it and sees no AIR key.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type InitializeRequest, type SessionInfo } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { AIR_LIST_CHANGES_METHOD, AIR_MAX_LIMIT } from "../../../acp/air/session-index.js";
import { initializeResponse } from "../../../acp/capabilities.js";
import { ACPX, AIR, REGISTRY_VALIDATOR, ZED } from "../../support/client-handshakes.js";
import { fakeClaude, result } from "../../support/fake-claude.js";
import { FakeTranscripts } from "../../support/fake-transcripts.js";
import { connectInProcess } from "../../support/in-process.js";

const A = "a1111111-1111-4111-8111-111111111111";
const B = "b2222222-2222-4222-8222-222222222222";
const C = "c3333333-3333-4333-8333-333333333333";

/** AIR's handshake without the index: its extension, but not `sessionIndex`. */
const AIR_WITHOUT_INDEX: InitializeRequest = {
  ...AIR,
  clientCapabilities: {
    ...AIR.clientCapabilities,
    _meta: { jetbrains: { air: { version: 1, capabilities: ["loadReplayEnd"] } } },
  },
};

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

/** A client of this handshake, with three saved sessions in one folder (A newest). */
async function connect(handshake: InitializeRequest = AIR) {
  const cwd = mkdtempSync(join(tmpdir(), "acp-air-index-"));
  const transcripts = new FakeTranscripts();
  transcripts.add({ sessionId: C, cwd, summary: "Third", lastModified: 1_000 });
  transcripts.add({ sessionId: B, cwd, summary: "Second", lastModified: 2_000 });
  transcripts.add({ sessionId: A, cwd, summary: "First", lastModified: 3_000 });
  const claude = fakeClaude();
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    transcripts,
    clientCapabilities: handshake.clientCapabilities ?? {},
    notifications: [AIR_LIST_CHANGES_METHOD],
  });
  cleanup.push(() => harness.close());
  const list = (params: Record<string, unknown> = {}) =>
    harness.agent.request<{ sessions: SessionInfo[]; nextCursor?: string }>("session/list", {
      cwd,
      ...params,
    });
  return { ...harness, cwd, transcripts, claude, list };
}

/** `_meta.jetbrains.air` of a row. */
const airOf = (row: SessionInfo) =>
  (row._meta as { jetbrains?: { air?: Record<string, unknown> } } | undefined)?.jetbrains?.air;
const airList = (list: Record<string, unknown>) => ({ _meta: { jetbrains: { air: { list } } } });

/** The changes the subscription sent so far, flattened. */
function changes(notifications: Array<{ method: string; params: unknown }>) {
  const sent = notifications.map(
    (n) => n.params as { subscriptionId: string; sessions: SessionInfo[]; removed: string[] },
  );
  return {
    ids: sent.map((n) => n.subscriptionId),
    rows: sent.flatMap((n) => n.sessions),
    removed: sent.flatMap((n) => n.removed),
  };
}

describe("AIR's session index: negotiation", () => {
  const INDEX = [
    "sessionIndex",
    "sessionBatchGet",
    "sessionArchive",
    "sessionRename",
    "sessionListSubscribe",
    "sessionWorktrees",
  ];
  const advertised = (handshake: InitializeRequest) =>
    (initializeResponse(handshake)._meta as { jetbrains: { air: { capabilities: string[] } } })
      .jetbrains.air.capabilities;

  it("a client that declares sessionIndex is answered with the index's capabilities beside the others", () => {
    expect(initializeResponse(AIR)._meta).toMatchObject({ jetbrains: { air: { version: 1 } } });
    expect(advertised(AIR)).toEqual([
      ...advertised(AIR_WITHOUT_INDEX).filter((c) => !INDEX.includes(c)),
      ...INDEX,
    ]);
  });

  it("AIR without sessionIndex is advertised none of it; Zed and the registry no AIR key at all", () => {
    expect(advertised(AIR_WITHOUT_INDEX)).toContain("customInstructions");
    expect(advertised(AIR_WITHOUT_INDEX).filter((c) => INDEX.includes(c))).toEqual([]);
    for (const other of [ZED, ACPX, REGISTRY_VALIDATOR]) {
      expect(JSON.stringify(initializeResponse(other))).not.toContain("jetbrains");
    }
  });

  it("the index's methods are not found for a client that did not declare it", async () => {
    for (const handshake of [ZED, ACPX, REGISTRY_VALIDATOR, AIR_WITHOUT_INDEX]) {
      const { agent, cwd } = await connect(handshake);
      for (const [method, params] of [
        ["_session/batch_get", { sessionIds: [A] }],
        ["_session/rename", { sessionId: A, title: "x" }],
        ["_session/archive", { sessionId: A }],
        ["_session/unarchive", { sessionId: A }],
        ["_session/list/subscribe", { cwd }],
        ["_session/list/unsubscribe", { subscriptionId: "x" }],
      ] as const) {
        await expect(agent.request(method, params)).rejects.toMatchObject({ code: -32601 });
      }
    }
  });
});

describe("AIR's session index: session/list", () => {
  it("rows carry AIR's fields (archived, state) in _meta.jetbrains.air, beside the agent's own", async () => {
    const { list } = await connect();
    const { sessions } = await list();
    expect(sessions.map((s) => s.sessionId)).toEqual([A, B, C]);
    expect(sessions[0]).toMatchObject({
      sessionId: A,
      title: "First",
      _meta: {
        claudeCode: { state: "idle" },
        jetbrains: { air: { version: 1, archived: false, state: "idle" } },
      },
    });
  });

  it("list.limit bounds a page (the cursor goes on from it); beyond the most, the most", async () => {
    const { list } = await connect();
    const first = await list(airList({ limit: 2 }));
    expect(first.sessions.map((s) => s.sessionId)).toEqual([A, B]);
    const next = await list({ ...airList({ limit: 2 }), cursor: first.nextCursor });
    expect(next.sessions.map((s) => s.sessionId)).toEqual([C]);
    expect(next.nextCursor).toBeUndefined();
    expect((await list(airList({ limit: AIR_MAX_LIMIT * 10 }))).sessions).toHaveLength(3);
  });

  it("list.archived: unarchived by default, archived alone, or all, each row saying which it is", async () => {
    const { list, agent } = await connect();
    await agent.request("_session/archive", { sessionId: B });
    const ids = async (archived?: string) =>
      (await list(airList({ archived }))).sessions.map((s) => [s.sessionId, airOf(s)?.archived]);
    expect(await ids()).toEqual([
      [A, false],
      [C, false],
    ]);
    expect(await ids("archived")).toEqual([[B, true]]);
    expect(await ids("all")).toEqual([
      [A, false],
      [B, true],
      [C, false],
    ]);
  });

  it("a limit, archive filter or includeWorktrees of the wrong kind is invalid params, and the agent goes on serving", async () => {
    const { list } = await connect();
    for (const bad of [
      { limit: 0 },
      { limit: 1.5 },
      { limit: "10" },
      { archived: "exclude" },
      { includeWorktrees: "yes" },
    ]) {
      await expect(list(airList(bad))).rejects.toMatchObject({ code: -32602 });
    }
    expect((await list()).sessions).toHaveLength(3);
  });

  it("Zed's and AIR-without-index's lists carry no AIR key and ignore AIR's list options", async () => {
    for (const handshake of [ZED, ACPX, AIR_WITHOUT_INDEX]) {
      const { list } = await connect(handshake);
      const page = await list(airList({ limit: 1 }));
      expect(page.sessions).toHaveLength(3);
      expect(JSON.stringify(page)).not.toContain("jetbrains");
    }
  });
});

describe("AIR's session index: _session/batch_get, rename, archive", () => {
  it("batch_get answers the rows of known ids in the order asked, in any folder, and leaves unknown ids out", async () => {
    const { agent, transcripts } = await connect();
    const elsewhere = mkdtempSync(join(tmpdir(), "acp-air-elsewhere-"));
    const D = "d4444444-4444-4444-8444-444444444444";
    transcripts.add({ sessionId: D, cwd: elsewhere, summary: "Elsewhere", lastModified: 5 });
    const { sessions } = await agent.request<{ sessions: SessionInfo[] }>("_session/batch_get", {
      sessionIds: [C, "nope", D, A],
    });
    expect(sessions.map((s) => [s.sessionId, s.title, airOf(s)?.state])).toEqual([
      [C, "Third", "idle"],
      [D, "Elsewhere", "idle"],
      [A, "First", "idle"],
    ]);
    await expect(agent.request("_session/batch_get", { sessionIds: [] })).resolves.toEqual({
      sessions: [],
    });
  });

  it("batch_get refuses repeated, blank or missing ids with invalid params", async () => {
    const { agent } = await connect();
    for (const params of [{ sessionIds: [A, A] }, { sessionIds: [" "] }, {}]) {
      await expect(agent.request("_session/batch_get", params)).rejects.toMatchObject({
        code: -32602,
      });
    }
  });

  it("rename titles the session as Claude Code's /rename does; a title with nothing visible is invalid params, an unknown id not found", async () => {
    const { agent, transcripts, list } = await connect();
    await expect(
      agent.request("_session/rename", { sessionId: B, title: "Renamed\u0007 here" }),
    ).resolves.toEqual({});
    expect(transcripts.sessions.get(B)!.info.customTitle).toBe("Renamed here");
    expect((await list()).sessions.find((s) => s.sessionId === B)?.title).toBe("Renamed here");
    await expect(
      agent.request("_session/rename", { sessionId: B, title: " \u200b " }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      agent.request("_session/rename", {
        sessionId: "f0000000-0000-4000-8000-000000000000",
        title: "x",
      }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it("archive marks the session with Claude Code's own mark and unarchive takes it off; an unknown id is not found", async () => {
    const { agent, transcripts } = await connect();
    await expect(agent.request("_session/archive", { sessionId: A })).resolves.toEqual({});
    expect(transcripts.sessions.get(A)!.info.archived).toBe(true);
    await expect(agent.request("_session/unarchive", { sessionId: A })).resolves.toEqual({});
    expect(transcripts.sessions.get(A)!.info.archived).toBe(false);
    await expect(
      agent.request("_session/archive", { sessionId: "f0000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it("archiving a session open here closes it and tells the client, as AIR reads it", async () => {
    const { agent, updates, claude, cwd, transcripts } = await connect();
    await agent.request(methods.agent.session.load, { sessionId: A, cwd, mcpServers: [] });
    await agent.request("_session/archive", { sessionId: A });
    expect(updates.filter((n) => n.sessionId === A).at(-1)?.update).toEqual({
      sessionUpdate: "session_info_update",
      _meta: { jetbrains: { air: { version: 1, archived: true } } },
    });
    expect(transcripts.sessions.get(A)!.info.archived).toBe(true);
    expect(claude.started.every((query) => query.closed)).toBe(true);
  });

  it("AIR without the index marks a session done with session/delete: it is archived, its conversation kept", async () => {
    const { agent, transcripts } = await connect(AIR_WITHOUT_INDEX);
    await agent.request(methods.agent.session.delete, { sessionId: A });
    expect(transcripts.sessions.get(A)?.info.archived).toBe(true);
    const zed = await connect(ZED);
    await zed.agent.request(methods.agent.session.delete, { sessionId: A });
    expect(zed.transcripts.sessions.has(A)).toBe(false);
  });
});

describe("AIR's session index: the list subscription", () => {
  it("a session made, retitled, archived or deleted in the folder reaches the subscriber as a change, without a list", async () => {
    const { agent, cwd, transcripts, notifications } = await connect();
    const { subscriptionId } = await agent.request<{ subscriptionId: string }>(
      "_session/list/subscribe",
      { cwd },
    );
    expect(subscriptionId).toEqual(expect.any(String));
    const D = "d4444444-4444-4444-8444-444444444444";
    transcripts.add({ sessionId: D, cwd, summary: "Made in a terminal", lastModified: 9_000 });
    await expect.poll(() => changes(notifications).rows.map((r) => r.sessionId)).toEqual([D]);
    expect(changes(notifications).rows[0]).toMatchObject({
      title: "Made in a terminal",
      _meta: { jetbrains: { air: { archived: false, state: "idle" } } },
    });

    await agent.request("_session/rename", { sessionId: D, title: "Named" });
    await expect.poll(() => changes(notifications).rows.at(-1)?.title).toBe("Named");
    await agent.request("_session/archive", { sessionId: D });
    await expect.poll(() => airOf(changes(notifications).rows.at(-1)!)?.archived).toBe(true);
    await agent.request(methods.agent.session.delete, { sessionId: D });
    await expect.poll(() => changes(notifications).removed).toEqual([D]);
    expect(new Set(changes(notifications).ids)).toEqual(new Set([subscriptionId]));
  });

  it("a session is sent at its first change; a write that then moves only its updatedAt is no change; a session of another folder is none of its business", async () => {
    const { agent, cwd, transcripts, notifications } = await connect();
    await agent.request("_session/list/subscribe", { cwd });
    await agent.request("_session/rename", { sessionId: A, title: "Named" });
    await expect.poll(() => changes(notifications).rows.map((r) => r.title)).toEqual(["Named"]);
    const entry = transcripts.sessions.get(A)!;
    entry.info = { ...entry.info, lastModified: entry.info.lastModified + 60_000 };
    transcripts.changed(A);
    const elsewhere = mkdtempSync(join(tmpdir(), "acp-air-elsewhere-"));
    transcripts.add({ sessionId: "e5555555-5555-4555-8555-555555555555", cwd: elsewhere });
    // A change that is one comes after both: nothing was sent before it.
    transcripts.add({ sessionId: "d4444444-4444-4444-8444-444444444444", cwd, summary: "New" });
    await expect.poll(() => notifications.length).toBe(2);
    expect(changes(notifications).rows.map((r) => r.title)).toEqual(["Named", "New"]);
  });

  it("a turn of a session open here shows as running, then idle, as it starts and ends", async () => {
    const { agent, cwd, claude, notifications } = await connect();
    await agent.request(methods.agent.session.load, { sessionId: A, cwd, mcpServers: [] });
    await agent.request("_session/list/subscribe", { cwd });
    const query = claude.started.at(-1)!;
    const turn = agent.request(methods.agent.session.prompt, {
      sessionId: A,
      prompt: [{ type: "text", text: "Hi." }],
    });
    await query.waitForSent(1);
    await expect
      .poll(() => changes(notifications).rows.map((r) => airOf(r)?.state))
      .toEqual(["running"]);
    query.emit(result());
    await turn;
    await expect
      .poll(() => changes(notifications).rows.map((r) => airOf(r)?.state))
      .toEqual(["running", "idle"]);
  });

  it("unsubscribe ends it (twice is no error); the connection's end ends them all", async () => {
    const harness = await connect();
    const { agent, cwd, transcripts, notifications } = harness;
    const { subscriptionId } = await agent.request<{ subscriptionId: string }>(
      "_session/list/subscribe",
      { cwd },
    );
    await agent.request("_session/list/subscribe", { cwd });
    expect(transcripts.watching).toBe(2);
    await expect(agent.request("_session/list/unsubscribe", { subscriptionId })).resolves.toEqual(
      {},
    );
    await expect(agent.request("_session/list/unsubscribe", { subscriptionId })).resolves.toEqual(
      {},
    );
    expect(transcripts.watching).toBe(1);
    harness.close();
    await expect.poll(() => transcripts.watching).toBe(0);
    expect(notifications).toEqual([]);
  });

  it("a cwd that is relative or no folder is invalid params, as session/list's is", async () => {
    const { agent, cwd } = await connect();
    for (const bad of ["relative/dir", join(cwd, "missing"), 42]) {
      await expect(agent.request("_session/list/subscribe", { cwd: bad })).rejects.toMatchObject({
        code: -32602,
      });
    }
  });
});
