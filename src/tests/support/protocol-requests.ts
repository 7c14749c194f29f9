// What protocol tests send the in-process agent beyond the SDK's typed calls: a method the
// SDK does not know, the error a request must fail with, a prompt a fake process answers.
import { methods, RequestError, type ClientContext } from "@agentclientprotocol/sdk";
import { expect } from "vitest";
import { result, streamedText, type FakeClaudeQuery } from "./fake-claude.js";

/** A request by method name, its params and result as plain records. */
export const request = (agent: ClientContext, method: string, params: unknown) =>
  agent.request<Record<string, unknown>>(method, params as Record<string, unknown>);

/** The JSON-RPC error `promise` fails with (the test fails if it succeeds). */
export async function rpcError(promise: Promise<unknown>): Promise<RequestError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
}

/** A prompt answered by the `index`th Claude Code process started (it may start for it). */
export async function answerOn(
  agent: ClientContext,
  claude: { started: FakeClaudeQuery[] },
  index: number,
  sessionId: string,
) {
  const prompt = agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "hi" }],
  });
  await expect.poll(() => claude.started.length).toBeGreaterThan(index);
  const query = claude.started[index]!;
  await query.waitForSent(1);
  query.emit(...streamedText("m", "ok"), result());
  return prompt;
}
