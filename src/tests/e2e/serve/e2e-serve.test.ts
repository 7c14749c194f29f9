// `claude-agent-acp serve`: ACP over WebSocket and Streamable HTTP, behind a token, with real
// Claude Code against the scripted API; the clients are the ACP SDK's own transports.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { textTurn, toolTurn } from "../../support/audit/project.js";
import { acpxRuntime, startAcpx, stopAllAcpx } from "../../support/acpx/index.js";
import { AGENT_ENTRY, REPO_ROOT } from "../../support/e2e/index.js";
import { startServed, SERVED_TOKEN, type Served } from "../../support/e2e/served.js";

const CLIENT = join(REPO_ROOT, "dist", "client", "index.js");

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

const writeMarker = (id: string, file: string) =>
  toolTurn(id, "Bash", { command: `echo served > ${file}`, description: "Write the marker" });

describe.each(["websocket", "http"] as const)("a turn over %s", (transport) => {
  it("runs with a permission asked of the client and answered there", async () => {
    served = await startServed({
      scenario: [writeMarker("toolu_served_1", "marker.txt"), textTurn("Written.")],
    });
    const connected = served.connect(transport, { answer: "select", optionId: "allow-once" });
    await connected.initialize();
    const { sessionId } = await connected.newSession(served.cwd);

    expect(await connected.prompt(sessionId, "Write the marker.")).toMatchObject({
      stopReason: "end_turn",
    });

    expect(connected.permissions.records).toHaveLength(1);
    expect(existsSync(join(served.cwd, "marker.txt"))).toBe(true);
    const text = connected.updates.of(sessionId, "agent_message_chunk");
    expect(text.map((u) => (u.content.type === "text" ? u.content.text : "")).join("")).toBe(
      "Written.",
    );
  });
});

describe("the gate", () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: 1, clientCapabilities: {} },
  });
  const post = (url: string, headers: Record<string, string>) =>
    fetch(url.replace(/^ws:/, "http:"), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...headers,
      },
      body: initialize,
    });
  const upgrade = (url: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once("unexpected-response", (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once("open", () => {
        socket.close();
        resolve(101);
      });
      socket.once("error", reject);
    });

  it("refuses no token, a wrong token and a wrong origin, over HTTP and WebSocket, before any agent", async () => {
    served = await startServed({ args: ["--allow-origin", "https://editor.example"] });
    const { url } = served;
    const right = { Authorization: `Bearer ${SERVED_TOKEN}` };
    const cases: Array<[Record<string, string>, number]> = [
      [{}, 401],
      [{ Authorization: "Bearer not-the-token-at-all" }, 401],
      [{ Authorization: SERVED_TOKEN }, 401],
      [{ ...right, Origin: "https://evil.example" }, 403],
    ];
    for (const [headers, status] of cases) {
      const response = await post(url, headers);
      expect(response.status).toBe(status);
      // Nothing else said: no body, no connection id.
      expect(await response.text()).toBe("");
      expect(response.headers.get("acp-connection-id")).toBeNull();
      expect(await upgrade(url, headers)).toBe(status);
    }
    expect(served.log()).not.toContain("a client connected");

    // The same requests with the token (and an allowed origin) get in.
    expect((await post(url, { ...right, Origin: "https://editor.example" })).status).toBe(200);
    expect(await upgrade(url, right)).toBe(101);
    expect(served.api.requests).toHaveLength(0);
  });
});

describe("the protocol versions", () => {
  it("serve ACP v2 to a client that asks for it, v1 to one that asks for 1, on the same port", async () => {
    served = await startServed();
    const versionFor = (asked: number) =>
      new Promise<unknown>((resolve, reject) => {
        const socket = new WebSocket(served!.url, {
          headers: { Authorization: `Bearer ${SERVED_TOKEN}` },
        });
        socket.once("open", () =>
          socket.send(
            JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "initialize",
              params:
                asked === 2
                  ? { protocolVersion: 2, info: { name: "e2e", version: "0" }, capabilities: {} }
                  : { protocolVersion: 1, clientCapabilities: {} },
            }),
          ),
        );
        socket.once("message", (data: Buffer) => {
          const answer = JSON.parse(data.toString("utf8")) as {
            result?: { protocolVersion?: number };
          };
          socket.close();
          resolve(answer.result?.protocolVersion);
        });
        socket.once("error", reject);
      });
    expect(await versionFor(2)).toBe(2);
    expect(await versionFor(1)).toBe(1);
  });
});

describe("a dropped connection", () => {
  it.each([
    ["websocket", "closes", "toolu_served_drop_closed"],
    ["http", "fails every request", "toolu_served_drop_http"],
    ["websocket", "goes silent", "toolu_served_drop_silent"],
  ] as const)(
    "over %s whose network %s loses nothing: a new connection's load gets the history, the live turn and the permission asked again",
    async (transport, failure, toolUseId) => {
      served = await startServed({
        scenario: [writeMarker(toolUseId, "dropped.txt"), textTurn("After the drop.")],
        // A Streamable HTTP client that went away is known by its event streams closing, a
        // silent WebSocket by its unanswered pings.
        args: ["--drop-after", "1"],
      });
      const first = served.connect(transport, { answer: "never" });
      await first.initialize();
      const { sessionId } = await first.newSession(served.cwd);
      const turn = first.prompt(sessionId, "Write the marker.");
      turn.catch(() => undefined);
      await first.permissions.waitForRequest(1);
      if (failure === "goes silent") first.goSilent();
      else first.drop();
      // The agent knows: a WebSocket by its socket, a Streamable HTTP client by its streams.
      await expectLog(served, `session ${sessionId}: its connection dropped; its turn goes on`);

      const second = served.connect("websocket", { answer: "select", optionId: "allow-once" });
      await second.initialize();
      await second.load(sessionId, served.cwd);
      // The permission request is asked again on the new connection, and answered there.
      const asked = await second.permissions.waitForRequest(1);
      expect(asked.request.toolCall.toolCallId).toBe(toolUseId);
      await second.updates.waitFor(sessionId, "agent_message_chunk", (u) =>
        u.content.type === "text" ? u.content.text.includes("drop") : false,
      );

      expect(existsSync(join(served.cwd, "dropped.txt"))).toBe(true);
      const seen = second.updates.of(sessionId);
      const prompts = seen.filter((u) => u.sessionUpdate === "user_message_chunk");
      expect(prompts).toEqual([
        expect.objectContaining({ content: { type: "text", text: "Write the marker." } }),
      ]);
      const calls = seen.filter(
        (u) => u.sessionUpdate === "tool_call" && u.toolCallId === toolUseId,
      );
      expect(calls).toHaveLength(1);
      const text = second.updates
        .of(sessionId, "agent_message_chunk")
        .map((u) => (u.content.type === "text" ? u.content.text : ""))
        .join("");
      expect(text).toBe("After the drop.");
      // The first connection's request was the first's alone.
      expect(first.permissions.records).toHaveLength(1);
    },
  );

  it("a load from another connection takes over a session still open on one: one Claude Code, the first hears no more", async () => {
    served = await startServed({
      scenario: [writeMarker("toolu_served_takeover", "taken.txt"), textTurn("Taken over.")],
    });
    const first = served.connect("websocket", { answer: "never" });
    await first.initialize();
    const { sessionId } = await first.newSession(served.cwd);
    first.prompt(sessionId, "Write the marker.").catch(() => undefined);
    await first.permissions.waitForRequest(1);
    const heardBefore = first.updates.of(sessionId).length;

    const second = served.connect("http", { answer: "select", optionId: "allow-once" });
    await second.initialize();
    await second.load(sessionId, served.cwd);
    const asked = await second.permissions.waitForRequest(1);
    expect(asked.request.toolCall.toolCallId).toBe("toolu_served_takeover");
    await second.updates.waitFor(sessionId, "agent_message_chunk", (u) =>
      u.content.type === "text" ? u.content.text.includes("Taken") : false,
    );

    expect(existsSync(join(served.cwd, "taken.txt"))).toBe(true);
    expect(first.updates.of(sessionId)).toHaveLength(heardBefore);
    // One Claude Code process for the session: one system init request per conversation.
    expect(served.log().match(/taken over by a connection/g)).toHaveLength(1);
  });

  it("after the grace period, the turn is cancelled: the command never runs and the session stays loadable", async () => {
    served = await startServed({
      scenario: [writeMarker("toolu_served_grace", "late.txt"), textTurn("Never.")],
      args: ["--reconnect-grace", "1"],
    });
    const first = served.connect("websocket", { answer: "never" });
    await first.initialize();
    const { sessionId } = await first.newSession(served.cwd);
    first.prompt(sessionId, "Write the marker.").catch(() => undefined);
    await first.permissions.waitForRequest(1);
    first.drop();
    await expectLog(served, `session ${sessionId}: nobody took it back in time`);

    const second = served.connect("websocket", { answer: "select", optionId: "allow-once" });
    await second.initialize();
    await second.load(sessionId, served.cwd);
    expect(second.permissions.records).toEqual([]);
    expect(existsSync(join(served.cwd, "late.txt"))).toBe(false);
    expect(second.updates.of(sessionId, "user_message_chunk")).not.toEqual([]);
  });

  it("a second connection loads what the first left", async () => {
    served = await startServed({ scenario: [textTurn("First answer.")] });
    const first = served.connect("http");
    await first.initialize();
    const { sessionId } = await first.newSession(served.cwd);
    await first.prompt(sessionId, "Hello.");
    first.close();

    const second = served.connect("websocket");
    await second.initialize();
    await second.load(sessionId, served.cwd);
    const text = second.updates
      .of(sessionId, "agent_message_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""))
      .join("");
    expect(text).toBe("First answer.");
  });
});

describe("the terminal client", () => {
  it("connects by URL with the token file, and the whole turn runs there", async () => {
    served = await startServed({
      scenario: [writeMarker("toolu_served_client", "client.txt"), textTurn("Client done.")],
    });
    const tokenFile = join(served.sandbox.root, "token");
    const run = await runClient(
      ["--url", served.url, "--token-file", tokenFile, "--answer", "allow-once"],
      "Write the marker.",
      served.cwd,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Client done.");
    expect(existsSync(join(served.cwd, "client.txt"))).toBe(true);
  });
});

describe("acpx, a client that starts agents as commands", () => {
  beforeAll(() => acpxRuntime(), 300_000);
  afterEach(stopAllAcpx);

  it("drives a served agent through claude-agent-acp connect", async () => {
    served = await startServed({
      scenario: [writeMarker("toolu_served_acpx", "acpx.txt"), textTurn("Served through acpx.")],
    });
    const bridge = join(served.sandbox.root, "connect.sh");
    const command = [process.execPath, AGENT_ENTRY, "connect", "--url", served.url];
    const tokenFile = join(served.sandbox.root, "token");
    await writeFile(
      bridge,
      `#!/bin/sh\nexec ${[...command, "--token-file", tokenFile].map((w) => `'${w}'`).join(" ")}\n`,
    );
    await chmod(bridge, 0o755);
    const acpx = await startAcpx({ agentCommand: bridge });
    // The session's folder is acpx's; the served agent (same machine here) works there.
    const run = await acpx.exec("Write the marker.", ["--approve-all"]);

    expect({ code: run.code, errors: run.output.errors() }).toEqual({ code: 0, errors: [] });
    expect(run.output.agentText()).toBe("Served through acpx.");
    expect(existsSync(join(acpx.cwd, "acpx.txt"))).toBe(true);
  });
});

/** The built terminal client, a prompt on its stdin; resolves when it exits. */
function runClient(
  args: readonly string[],
  prompt: string,
  cwd: string,
): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [CLIENT, "--cwd", cwd, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { PATH: process.env.PATH, NO_COLOR: "1" },
  });
  child.stdin.end(`${prompt}\n`);
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout })));
}

async function expectLog(served: Served, line: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!served.log().includes(line)) {
    if (Date.now() > deadline) throw new Error(`the agent never logged: ${line}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
