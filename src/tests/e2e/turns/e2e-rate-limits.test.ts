// End-to-end: a subscriber's usage limits with the real Claude Code, signed in with an OAuth
// token against the scripted API answering with Anthropic's unified rate-limit headers. A
// warning is one notice in Claude Code's words and the state rides on usage_update; a limit
// hit ends the prompt with Claude Code's sentence (no "Internal error"), its kind and reset in
// the data, shown in the conversation too; the next prompt after the reset works; a reset header
// that is no date (far ahead, past, not a number) fails no turn and is not shown. The account's
// other errors (billing, a verification, an organization that disallows the login) and an
// overloaded API end the prompt the same clear way, each with its kind.
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

/** Signed in with a subscription: Claude Code reports limits only then. */
const SUBSCRIBER = { CLAUDE_CODE_OAUTH_TOKEN: "test-oauth-token", ANTHROPIC_API_KEY: undefined };
const NOTICES: ClientCapabilities = { session: { notices: {} } };
/** Three hours from now: Claude Code warns at 90% of a 5-hour window that has that much left. */
const resetsAt = () => Math.round(Date.now() / 1000) + 3 * 3600;

describe("a subscription's usage limits", () => {
  it("92% of the 5-hour window: one warning notice in Claude Code's words, however many replies follow, usage_update carries the state, and /usage lists the window", async () => {
    const reset = resetsAt();
    const warn = (utilization: number) => ({
      content: [{ type: "text" as const, text: "Hi." }],
      rateLimit: {
        status: "allowed_warning" as const,
        window: "five_hour" as const,
        utilization,
        resetsAt: reset,
        surpassedThreshold: 0.9,
      },
    });
    const e2e = await startE2E({
      scenario: [warn(0.92), warn(0.93), warn(0.94)],
      env: SUBSCRIBER,
      clientCapabilities: NOTICES,
    });
    const { sessionId } = await e2e.newSession();
    for (const prompt of ["One.", "Two.", "Three."]) {
      expect(await e2e.prompt(sessionId, prompt)).toMatchObject({ stopReason: "end_turn" });
    }

    const warnings = e2e.updates
      .of(sessionId, "notice")
      .filter((n) => (n._meta?.claudeCode as { kind?: string }).kind === "rate_limit_warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: "warning" });
    expect(warnings[0]?.title).toMatch(/^You've used 92% of your 5-hour limit · resets .+ \(.+\)$/);
    const usage = e2e.updates.of(sessionId, "usage_update").at(-1);
    expect(usage?._meta).toMatchObject({
      claudeCode: {
        rateLimit: {
          status: "allowed_warning",
          window: "five_hour",
          resetsAt: reset,
          resetsAtIso: new Date(reset * 1000).toISOString(),
        },
      },
    });

    // Signed in by token, Claude Code cannot read the plan from claude.ai: its `/usage` says
    // the cost, and the reply gains the windows the replies reported (as its terminal UI).
    const before = e2e.updates.of(sessionId, "agent_message_chunk").length;
    expect(await e2e.prompt(sessionId, "/usage")).toMatchObject({ stopReason: "end_turn" });
    const reply = e2e.updates.of(sessionId, "agent_message_chunk").slice(before);
    const text = reply.map((c) => (c.content.type === "text" ? c.content.text : "")).join("");
    expect(text).toMatch(/^Estimated cost: /);
    expect(text).toMatch(
      /\n\nPlan limits, as the last replies reported them:\n5-hour limit: 94% used · resets .+ \(.+\)$/,
    );
    expect(new Set(reply.map((c) => c.messageId)).size).toBe(1);
  });

  it("the limit hit ends the prompt with Claude Code's sentence and the kind and reset in data, shown as an error notice; the next prompt after the reset works, with nothing retried", async () => {
    const reset = resetsAt();
    const e2e = await startE2E({
      scenario: [
        {
          fault: {
            type: "http",
            status: 429,
            rateLimit: { status: "rejected", window: "five_hour", utilization: 1, resetsAt: reset },
          },
        },
        {
          content: [{ type: "text", text: "Back." }],
          rateLimit: { status: "allowed", window: "five_hour", utilization: 0.01, resetsAt: reset },
        },
      ],
      env: SUBSCRIBER,
      clientCapabilities: NOTICES,
    });
    const { sessionId } = await e2e.newSession();

    const error = await e2e.prompt(sessionId, "Hi.").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    const { code, message, data } = error as RequestError;
    expect(code).toBe(-32603);
    expect(message).toMatch(/^You've hit your 5-hour limit · resets /);
    expect(data).toMatchObject({ kind: "rate_limit", window: "five_hour", resetsAt: reset });
    const reached = e2e.updates
      .of(sessionId, "notice")
      .find((n) => (n._meta?.claudeCode as { kind?: string }).kind === "rate_limit_reached");
    expect(reached).toMatchObject({ severity: "error" });
    expect(reached?.title).toMatch(/^You've hit your 5-hour limit · resets /);
    expect(e2e.api.requests.filter((r) => r.kind === "main")).toHaveLength(1);

    expect(await e2e.prompt(sessionId, "Again.")).toMatchObject({ stopReason: "end_turn" });
  });
});

describe("a reset time that is no date", () => {
  it("a reset header far in the future, past any date or not a finite number fails no turn: each reply arrives, the turn ends end_turn and no invalid date is shown", async () => {
    const RESETS = ["reset", "5h-reset", "7d-reset", "7d_oi-reset", "overage-reset"];
    const reply = (value: string) => ({
      content: [{ type: "text" as const, text: `Reply ${value}.` }],
      rateLimit: {
        status: "allowed_warning" as const,
        window: "five_hour" as const,
        utilization: 0.92,
        surpassedThreshold: 0.9,
      },
      headers: Object.fromEntries(RESETS.map((h) => [`anthropic-ratelimit-unified-${h}`, value])),
    });
    // Past what a Date holds, not a finite number, no number, the epoch, before it, the past.
    const values = ["99999999999999999999", "8.64e15", "1e400", "soon", "0", "-5", "1000000000"];
    const e2e = await startE2E({
      scenario: values.map(reply),
      env: SUBSCRIBER,
      clientCapabilities: NOTICES,
    });
    const { sessionId } = await e2e.newSession();
    for (const value of values) {
      expect(await e2e.prompt(sessionId, `Value ${value}.`)).toMatchObject({
        stopReason: "end_turn",
      });
      const said = e2e.updates
        .of(sessionId, "agent_message_chunk")
        .map((c) => (c.content.type === "text" ? c.content.text : ""))
        .join("");
      expect(said).toContain(`Reply ${value}.`);
    }
    expect(await e2e.prompt(sessionId, "/usage")).toMatchObject({ stopReason: "end_turn" });

    // The warning is told without a reset; the data carries no reset at all.
    const warnings = e2e.updates
      .of(sessionId, "notice")
      .filter((n) => (n._meta?.claudeCode as { kind?: string }).kind === "rate_limit_warning");
    expect(warnings.map((n) => n.title)).toContain("You've used 92% of your 5-hour limit");
    for (const n of warnings) expect(n.title).not.toMatch(/resets|Invalid/);
    const states = e2e.updates
      .of(sessionId, "usage_update")
      .map(
        (u) =>
          (u._meta?.claudeCode as { rateLimit?: Record<string, unknown> } | undefined)?.rateLimit,
      )
      .filter((s) => s !== undefined);
    expect(states.length).toBeGreaterThan(0);
    for (const state of states)
      for (const key of ["resetsAt", "resetsAtIso", "overageResetsAt", "overageResetsAtIso"])
        expect(state).not.toHaveProperty(key);
    const usage = e2e.updates
      .of(sessionId, "agent_message_chunk")
      .map((c) => (c.content.type === "text" ? c.content.text : ""))
      .join("");
    expect(usage).toMatch(/\n5-hour limit: 92% used$/);
  });
});

describe("the account's other errors", () => {
  it("billing, a verification, an overloaded API and an organization that disallows the login each end the prompt with a clear sentence, a kind in data and what to do; the session goes on, and past the limit on usage credits it is told so", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          fault: {
            type: "http",
            status: 400,
            message: "Your credit balance is too low to access the Anthropic API.",
          },
        },
        {
          fault: {
            type: "http",
            status: 403,
            message: "Verify your identity to keep using Claude: https://claude.ai/verify",
            details: { error_code: "verification_required" },
          },
        },
        { fault: { type: "http", status: 529 } },
        {
          fault: {
            type: "http",
            status: 403,
            message: "OAuth authentication is currently not allowed for this organization.",
          },
        },
        // Past the 5-hour limit, paid from usage credits: the reply goes on.
        {
          content: [{ type: "text", text: "Back." }],
          rateLimit: {
            status: "rejected",
            window: "five_hour",
            utilization: 1,
            resetsAt: resetsAt(),
            overageStatus: "allowed",
          },
          headers: { "anthropic-ratelimit-unified-5h-status": "rejected" },
        },
      ],
      env: { ...SUBSCRIBER, CLAUDE_CODE_MAX_RETRIES: "0" },
      clientCapabilities: NOTICES,
    });
    const { sessionId } = await e2e.newSession();
    const fail = async (prompt: string) => {
      const error = await e2e.prompt(sessionId, prompt).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      return error as RequestError;
    };

    const billing = await fail("One.");
    expect(billing.code).toBe(-32603);
    expect(billing.message).toBe(
      "Credit balance is too low · Add credits at https://platform.claude.com/settings/billing, or log in with another account",
    );
    expect(billing.data).toEqual({ error: "billing_error", kind: "billing" });

    const verify = await fail("Two.");
    expect(verify.message).toBe(
      "API Error: Verify your identity to keep using Claude: https://claude.ai/verify",
    );
    expect(verify.data).toMatchObject({ kind: "verification_required" });

    const overloaded = await fail("Three.");
    expect(overloaded.message).toMatch(/^Internal error: API Error: 529 Overloaded/);
    expect(overloaded.data).toEqual({ error: "server_error", kind: "overloaded", status: 529 });

    const org = await fail("Four.");
    expect(org.code).toBe(-32000);
    expect(org.message).toMatch(/organization has disabled Claude subscription access/);
    expect(org.message).toMatch(/login action \(Claude account or Anthropic Console\)/);
    expect(org.data).toEqual({ error: "oauth_org_not_allowed", kind: "org_not_allowed" });

    // The account's own errors are shown in the conversation; the others are not its.
    const shown = e2e.updates
      .of(sessionId, "notice")
      .filter((n) => n.severity === "error")
      .map((n) => [(n._meta?.claudeCode as { kind?: string }).kind, n.title]);
    expect(shown).toEqual([
      ["billing", billing.message],
      ["verification_required", verify.message],
    ]);
    expect(await e2e.prompt(sessionId, "Again.")).toMatchObject({ stopReason: "end_turn" });
    const credits = e2e.updates
      .of(sessionId, "notice")
      .filter((n) => (n._meta?.claudeCode as { kind?: string }).kind === "rate_limit_credits");
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ severity: "warning" });
    expect(credits[0]?.title).toMatch(
      /^You're now using usage credits · Your 5-hour limit resets .+ \(.+\)$/,
    );
  });
});
