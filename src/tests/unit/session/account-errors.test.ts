// An API error Claude Code reported ends the prompt with a kind a client can act on; the
// account's own errors keep Claude Code's sentence as the whole message, say what to do next,
// and are shown in the conversation. The sentences are the real Claude Code's (see
// e2e-account-errors.test.ts).
import { describe, expect, it } from "vitest";
import { toRequestError } from "../../../acp/errors.js";
import type { SDKResultMessage } from "../../../claude/types.js";
import {
  accountErrorNotice,
  apiErrorClass,
  statusInSentence,
  type ClaudeApiError,
} from "../../../session/stream/account-errors.js";
import { outcomeOfResult } from "../../../session/turns/outcome.js";

const failed = (result: string) =>
  ({ type: "result", subtype: "success", is_error: true, result }) as unknown as SDKResultMessage;

/** The prompt's wire error and the notice shown with it. */
function ending(apiError: ClaudeApiError, sentence: string, limits?: Record<string, unknown>) {
  const outcome = outcomeOfResult(failed(sentence), { cancelRequested: false, apiError }, limits);
  if (!("error" in outcome)) throw new Error("expected an error");
  return { wire: toRequestError(outcome.error), notice: accountErrorNotice(outcome.error) };
}

describe("account errors", () => {
  it("billing: Claude Code's sentence and where to add credits, no internal error, kind billing, shown in the conversation", () => {
    const { wire, notice } = ending("billing_error", "Credit balance is too low");
    expect(wire.code).toBe(-32603);
    expect(wire.message).toBe(
      "Credit balance is too low \u00b7 Add credits at https://platform.claude.com/settings/billing, or log in with another account",
    );
    expect(wire.data).toEqual({ error: "billing_error", kind: "billing" });
    expect(notice).toEqual({ kind: "billing", severity: "error", title: wire.message });
  });

  it("a verification or a hold whose sentence names its page keeps the sentence as it is", () => {
    const verify = ending(
      "verification_required",
      "API Error: Verify your identity to keep using Claude: https://claude.ai/verify",
    );
    expect(verify.wire.message).toBe(
      "API Error: Verify your identity to keep using Claude: https://claude.ai/verify",
    );
    expect(verify.wire.data).toEqual({
      error: "verification_required",
      kind: "verification_required",
    });
    expect(verify.notice?.kind).toBe("verification_required");
    const hold = ending(
      "account_on_hold",
      "Your account is on hold. View details or appeal: https://claude.ai/hold",
    );
    expect(hold.wire.message).toBe(
      "Your account is on hold. View details or appeal: https://claude.ai/hold",
    );
    expect(hold.wire.data).toMatchObject({ kind: "account_on_hold" });
  });

  it("rejected credentials are auth required (-32000) with the kind, saying how to log in here", () => {
    const { wire, notice } = ending(
      "authentication_failed",
      "Invalid API key \u00b7 Fix external API key",
    );
    expect(wire.code).toBe(-32000);
    expect(wire.data).toEqual({ error: "authentication_failed", kind: "authentication" });
    expect(wire.message).toMatch(
      /^Authentication required: Invalid API key\. Fix external API key\. .*login action/,
    );
    expect(notice).toBeUndefined();
    const org = ending(
      "oauth_org_not_allowed",
      "Your organization has disabled Claude subscription access for Claude Code \u00b7 Use an Anthropic API key instead, or ask your admin to enable access",
    );
    expect(org.wire.code).toBe(-32000);
    expect(org.wire.data).toEqual({ error: "oauth_org_not_allowed", kind: "org_not_allowed" });
    expect(org.wire.message).toMatch(
      /^Authentication required: Your organization has disabled .* Use an Anthropic API key/,
    );
  });

  it("a 529 behind a custom base URL (Claude Code says server_error) is kind overloaded with its status; it stays an internal error", () => {
    const sentence =
      "API Error: 529 Overloaded. This is a server-side issue, usually temporary \u2014 try again in a moment.";
    const { wire, notice } = ending("server_error", sentence);
    expect(wire.code).toBe(-32603);
    expect(wire.message).toBe(`Internal error: ${sentence}`);
    expect(wire.data).toEqual({ error: "server_error", kind: "overloaded", status: 529 });
    expect(notice).toBeUndefined();
  });

  it("an API rate limit that is not a subscription's rejected limit is a turn error of kind rate_limit", () => {
    const { wire } = ending("rate_limit", "API Error: Request rejected (429) \u00b7 rate limited");
    expect(wire.message).toMatch(/^Internal error: /);
    expect(wire.data).toEqual({ error: "rate_limit", kind: "rate_limit", status: 429 });
    const limit = ending("rate_limit", "You've hit your 5-hour limit", { status: "rejected" });
    expect(limit.wire.message).toBe("You've hit your 5-hour limit");
    // Shown when Claude Code reports the limit, not again at the end of the prompt.
    expect(limit.notice).toBeUndefined();
  });

  it("Claude Code's sentence is cleaned of escape sequences and control characters before the client gets it", () => {
    const account = ending("billing_error", "Credit \u001b[31mbalance\u001b[0m is too low\u0007");
    expect(account.wire.message).toBe(
      "Credit balance is too low \u00b7 Add credits at https://platform.claude.com/settings/billing, or log in with another account",
    );
    const turn = ending("server_error", "API Error: 500 \u001b[1mboom\u202e");
    expect(turn.wire.message).toBe("Internal error: API Error: 500 boom");
    const auth = ending("authentication_failed", "Invalid \u001b[31mAPI key\u0000");
    expect(auth.wire.message).toMatch(/^Authentication required: Invalid API key\. /);
  });

  it("every API error Claude Code names has a kind", () => {
    const errors: ClaudeApiError[] = [
      "authentication_failed",
      "oauth_org_not_allowed",
      "account_on_hold",
      "verification_required",
      "billing_error",
      "rate_limit",
      "overloaded",
      "invalid_request",
      "model_not_found",
      "server_error",
      "unknown",
      "max_output_tokens",
      "cloud_credential_error",
    ];
    for (const error of errors) expect(apiErrorClass(error, "x").kind).toMatch(/^[a-z_]+$/);
    expect(apiErrorClass("cloud_credential_error", "x").kind).toBe("cloud_credentials");
  });

  it("the status is read only from the opening of Claude Code's 'API Error: …' sentence", () => {
    expect(statusInSentence("API Error: 500 Internal server error")).toBe(500);
    expect(statusInSentence("API Error: Request rejected (429) \u00b7 per-minute limit")).toBe(429);
    expect(statusInSentence("Something 529 happened")).toBeUndefined();
    expect(statusInSentence("API Error: x \u00b7 see (529)")).toBeUndefined();
  });
});
