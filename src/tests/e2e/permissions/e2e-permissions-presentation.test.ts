// End-to-end, the permission request as the client receives it (permission-extension.md,
// "Request lifecycle", "Request presentation", "Tool-call presentation", "Permission modes
// and bypass"): the built agent, the real Claude Code and the scripted API.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../../scripted-api/index.js";
import {
  localSettings,
  npmTestRuns,
  PACKAGE_JSON,
  textTurn,
  toolTurn,
  writeFiles,
} from "../../support/audit/project.js";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await stopAllE2E();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
shareAgents({ sessions: true });

/** The permission request's `_meta.permission`, as sent. */
function permissionMeta(request: RequestPermissionRequest): unknown {
  return (request._meta as { permission?: unknown } | undefined)?.permission;
}

/** The `session/request_permission` for a tool call, and its place on the wire. */
function requestOnWire(e2e: E2E, toolCallId: string) {
  return e2e.transcript
    .calls("session/request_permission", "from-agent")
    .find(
      (entry) =>
        (entry.message?.params as RequestPermissionRequest | undefined)?.toolCall.toolCallId ===
        toolCallId,
    );
}

describe("session/request_permission", () => {
  it("follows its tool_call on the wire and carries the tool call pending with rawInput, blockedPath in locations, and _meta.permission titled as the tool call with the CLI's reason", async () => {
    const outside = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-outside-")));
    cleanups.push(() => rm(outside, { recursive: true, force: true }));
    await writeFiles(outside, { "notes.txt": "notes\n" });
    const calls = {
      toolu_npm: { command: "npm test" },
      toolu_redirect: { command: "echo hi > out.txt" },
      toolu_read: { file_path: join(outside, "notes.txt") },
    };
    const e2e = await startE2E({
      scenario: [
        toolTurn("toolu_npm", "Bash", calls.toolu_npm),
        toolTurn("toolu_redirect", "Bash", calls.toolu_redirect),
        toolTurn("toolu_read", "Read", calls.toolu_read),
        textTurn("All refused."),
      ],
      // Refusing keeps the test about what is asked.
      permission: { answer: "select", optionId: "reject" },
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Do three things.")).toMatchObject({
      stopReason: "end_turn",
    });

    expect(e2e.permissions.records.map((r) => r.request.toolCall.toolCallId)).toEqual(
      Object.keys(calls),
    );
    for (const [toolCallId, input] of Object.entries(calls)) {
      const request = requestOnWire(e2e, toolCallId);
      const params = request?.message?.params as RequestPermissionRequest;
      // The tool_call announcement precedes its request.
      const before = e2e.transcript
        .sessionUpdates()
        .filter((n) => n.entry.seq < request!.seq)
        .map((n) => n.update)
        .filter(
          (u) =>
            (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
            u.toolCallId === toolCallId,
        );
      expect(before[0]?.sessionUpdate, `tool_call ${toolCallId} before its request`).toBe(
        "tool_call",
      );
      // The title the client shows for the call by then (the announcement may come while
      // the input still streams; updates refine it) is the request's.
      const title = before.flatMap((u) => ("title" in u && u.title ? [u.title] : [])).at(-1);
      // The request's toolCall: same title, pending, the original input.
      expect(params.toolCall).toMatchObject({
        toolCallId,
        title,
        status: "pending",
        rawInput: input,
      });
      expect(permissionMeta(params)).toMatchObject({ version: 1, title });
    }

    const npm = requestOnWire(e2e, "toolu_npm")?.message?.params as RequestPermissionRequest;
    expect(npm.toolCall.title).toBe("npm test");
    // npm test: the CLI says "This command requires approval" (when it says anything).
    const npmDescription = (permissionMeta(npm) as { description?: string }).description;
    if (npmDescription !== undefined) expect(npmDescription).toMatch(/^Reason: \S/);

    const redirect = requestOnWire(e2e, "toolu_redirect")?.message
      ?.params as RequestPermissionRequest;
    expect(redirect.toolCall.locations).toContainEqual({ path: join(e2e.cwd, "out.txt") });
    // The CLI gives no decisionReason for it: no description.
    expect(permissionMeta(redirect)).toEqual({ version: 1, title: "echo hi > out.txt" });

    const read = requestOnWire(e2e, "toolu_read")?.message?.params as RequestPermissionRequest;
    expect(permissionMeta(read)).toEqual({
      version: 1,
      title: read.toolCall.title,
      description: "Reason: Path is outside allowed working directories",
    });
    expect(read.toolCall.locations).toContainEqual(
      expect.objectContaining({ path: join(outside, "notes.txt") }),
    );
  });
});

describe("ExitPlanMode's request", () => {
  it("is the deliberate title exception, Ready to code?, over a tool call that carries the plan from the plan file", async () => {
    const plan = "# Plan\n\n1. Paint the button blue.\n";
    const e2e = await startE2E({ permission: { answer: "select", optionId: "reject" } });
    // Claude Code tells the model where the plan goes; the scripted model writes it there.
    const planFile = (request: RecordedRequest): string => {
      const at = /create your plan at (\S+\.md)/.exec(JSON.stringify(request.body));
      if (!at?.[1]) throw new Error("Claude Code did not announce a plan file");
      return at[1];
    };
    e2e.api.setScenario([
      (request) => ({
        content: [
          {
            type: "tool_use",
            id: "toolu_plan",
            name: "Write",
            input: { file_path: planFile(request), content: plan },
          },
        ],
      }),
      toolTurn("toolu_exit", "ExitPlanMode", {}),
      textTurn("Still planning."),
    ]);
    const { sessionId } = await e2e.newSession();
    await e2e.client.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });

    expect(await e2e.prompt(sessionId, "Plan it.")).toMatchObject({ stopReason: "end_turn" });

    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(asked?.request.toolCall).toMatchObject({
      toolCallId: "toolu_exit",
      title: "Approve Plan",
      status: "pending",
      rawInput: expect.objectContaining({ plan }) as unknown,
    });
    expect(JSON.stringify(asked?.request.toolCall.content)).toContain("Paint the button blue.");
    expect(permissionMeta(asked!.request)).toEqual({ version: 1, title: "Ready to code?" });
    const ids = asked?.request.options.map((o) => o.optionId) ?? [];
    expect(ids[0]).toBe("exit-plan-default");
    expect(ids.at(-1)).toBe("reject");
    // A non-empty plan gets exactly one clear-context choice.
    expect(ids.filter((id) => id.startsWith("exit-plan-clear-"))).toHaveLength(1);
  });
});

describe("Bypass permissions", () => {
  /** A Bypass session in a project whose settings force npm test to ask. */
  async function bypassSession(e2e: E2E, askRules: string[]): Promise<string> {
    await writeFiles(e2e.cwd, {
      "package.json": PACKAGE_JSON,
      ".claude/settings.json": JSON.stringify({ permissions: { ask: askRules } }),
    });
    const { sessionId, modes } = await e2e.newSession();
    expect(modes?.availableModes.map((m) => m.id)).toContain("bypassPermissions");
    await e2e.client.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    return sessionId;
  }

  it("still asks about a call an ask rule forces, with one-time choices only and _meta.permission, while other calls run unasked", async () => {
    const e2e = await startE2E({
      scenario: [
        toolTurn("toolu_redirect", "Bash", { command: "echo hi > out.txt" }),
        toolTurn("toolu_npm", "Bash", { command: "npm test" }),
        textTurn("Done both."),
      ],
      permission: { answer: "select", optionId: "allow-once" },
      // Claude Code refuses Bypass as root unless it runs in a sandbox.
      env: { IS_SANDBOX: "1" },
    });
    const sessionId = await bypassSession(e2e, ["Bash(npm test:*)"]);

    expect(await e2e.prompt(sessionId, "Write and test.")).toMatchObject({
      stopReason: "end_turn",
    });

    // Bypass ran the redirect without asking; the ask rule made npm test ask.
    const [asked, ...others] = e2e.permissions.records;
    expect(others).toEqual([]);
    expect(asked?.request.toolCall.toolCallId).toBe("toolu_npm");
    expect(asked?.request.options).toEqual([
      { optionId: "allow-once", name: "Yes", kind: "allow_once" },
      { optionId: "reject", name: "No", kind: "reject_once" },
    ]);
    expect(permissionMeta(asked!.request)).toEqual({ version: 1, title: "npm test" });
    expect(await npmTestRuns(e2e.cwd)).toBe(1);
  });

  it("offers no durable choice for a WebFetch a domain ask rule forces: an allow rule could not stop the asking", async () => {
    const e2e = await startE2E({
      scenario: [
        toolTurn("toolu_fetch_1", "WebFetch", {
          url: "https://example.com/a",
          prompt: "Sum up.",
        }),
        toolTurn("toolu_fetch_2", "WebFetch", {
          url: "https://example.com/b",
          prompt: "Sum up.",
        }),
        textTurn("Fetched."),
      ],
      // Takes the durable choice when it is offered: what a user who trusts the label does.
      permission: {
        answer: "select",
        optionId: (request) =>
          request.options.some((o) => o.optionId === "allow-with-updates")
            ? "allow-with-updates"
            : "allow-once",
      },
      env: { IS_SANDBOX: "1" },
    });
    const sessionId = await bypassSession(e2e, ["WebFetch(domain:example.com)"]);

    expect(await e2e.prompt(sessionId, "Fetch both.")).toMatchObject({ stopReason: "end_turn" });

    const kinds = e2e.permissions.records.map((r) => r.request.options.map((o) => o.kind));
    expect(kinds).toEqual([
      ["allow_once", "reject_once"],
      ["allow_once", "reject_once"],
    ]);
    expect(await localSettings(e2e.cwd)).toBeUndefined();
  });
});
