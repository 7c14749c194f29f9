import { describe, expect, it } from "vitest";
import {
  continuationId,
  conversationChain,
  MAX_CONTINUATIONS,
} from "../../../session/lifecycle/continuations.js";

const HEAD = "11111111-1111-4111-8111-111111111111";
const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("the conversation a plan handoff continues in", () => {
  it("has an id derived from the one before: the same every time, a valid UUID", () => {
    const next = continuationId(HEAD);
    expect(next).toMatch(UUID_V5);
    expect(continuationId(HEAD)).toBe(next);
    expect(next).not.toBe(HEAD);
    expect(continuationId(next)).not.toBe(next);
    expect(continuationId("22222222-2222-4222-8222-222222222222")).not.toBe(next);
  });

  it("a session's chain follows saved continuations and stops at the first one not saved", async () => {
    const second = continuationId(HEAD);
    const third = continuationId(second);
    const saved = new Set([HEAD, second, third, continuationId(continuationId(third))]);
    const chain = await conversationChain(HEAD, (id) => Promise.resolve(saved.has(id)));
    expect(chain).toEqual([HEAD, second, third]);
  });

  it("a session without a handoff is its one conversation", async () => {
    expect(await conversationChain(HEAD, () => Promise.resolve(false))).toEqual([HEAD]);
  });

  it("a chain is followed through at most MAX_CONTINUATIONS handoffs", async () => {
    const chain = await conversationChain(HEAD, () => Promise.resolve(true));
    expect(chain).toHaveLength(MAX_CONTINUATIONS + 1);
  });
});
