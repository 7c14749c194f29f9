// How a client's prompt or steer enters a session: a start that failed is reported first;
// the content is converted and checked once, the same way for both; `/mcp` and `/skills` are
// answered by the agent in the prompts' order, and anything else goes to Claude Code as a turn.
import type { ContentBlock, PromptResponse } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../../acp/session-client.js";
import type { SteeringResponse } from "../../acp/steering.js";
import type { ClaudeQuery } from "../../claude/query.js";
import type { ModelInfo, UserContentBlock } from "../../claude/types.js";
import { parseMcpCommand } from "../../mcp/command.js";
import { isSkillsCommand, runSkillsCommand } from "../../skills/command.js";
import type { SessionMcp } from "../../mcp/session-mcp.js";
import { checkModelCommand } from "../configuration/model-ids.js";
import type { PromptSuggestions } from "../stream/prompt-suggestions.js";
import { promptToClaude } from "./prompt.js";
import { steer } from "./steering.js";
import type { Turn } from "./turn.js";
import type { TurnQueue } from "./turn-queue.js";
import type { TurnStarted } from "./turn-queue.js";

/** What a prompt's way into its session needs of it. */
export interface PromptEntryHost {
  readonly client: SessionClient;
  readonly turns: TurnQueue;
  readonly mcp: SessionMcp;
  readonly suggestions: PromptSuggestions;
  /** The failed start no prompt has reported yet, once. */
  takeFailure(): Error | undefined;
  /** The models `/model` may name. */
  knownModels(): readonly ModelInfo[];
  currentTurn(): Turn | undefined;
  query(): ClaudeQuery | undefined;
}

/** A prompt's content for Claude Code, refused when `/model` names no model. */
function toClaude(host: PromptEntryHost, blocks: readonly ContentBlock[]): UserContentBlock[] {
  const content = promptToClaude(blocks);
  checkModelCommand(content, host.knownModels());
  return content;
}

/** `session/prompt`; `signal` and `started` as TurnQueue.prompt takes them. */
export async function enterPrompt(
  host: PromptEntryHost,
  blocks: readonly ContentBlock[],
  signal?: AbortSignal,
  started?: TurnStarted,
): Promise<PromptResponse> {
  const failure = host.takeFailure();
  if (failure) throw failure;
  await host.suggestions.promptStarted();
  const content = toClaude(host, blocks);
  const mcpCommand = parseMcpCommand(blocks);
  // `/mcp` waits its turn like any prompt, so its answer never lands inside another turn.
  if (mcpCommand) {
    return host.turns.exclusive((query, s) => host.mcp.run(mcpCommand, query, s), signal, started);
  }
  if (isSkillsCommand(blocks)) {
    return host.turns.exclusive((query) => runSkillsCommand(host.client, query), signal, started);
  }
  return host.turns.prompt(content, signal, started);
}

/** `_session/steering`: the message joins the running turn, or starts one (steering.ts). */
export function enterSteer(
  host: PromptEntryHost,
  blocks: readonly ContentBlock[],
  idleBehavior: string | undefined,
): SteeringResponse {
  return steer(
    {
      client: host.client,
      currentTurn: () => host.currentTurn(),
      query: () => host.query(),
      prompt: (b) => enterPrompt(host, b),
      toClaude: (b) => toClaude(host, b),
    },
    blocks,
    idleBehavior,
  );
}
