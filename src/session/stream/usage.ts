import type { UsageUpdate } from "@agentclientprotocol/sdk";
import type { Usage } from "@agentclientprotocol/sdk/unstable";
import type { SDKPartialAssistantMessage, SDKResultMessage } from "../../claude/types.js";

type StreamEvent = SDKPartialAssistantMessage["event"];

/** The token counts of one API response as the stream reports them. */
interface CallUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

const n = (value: number | null | undefined): number =>
  typeof value === "number" && Number.isFinite(value) ? value : 0;

/**
 * Tracks how full the context window is (from the main thread's latest API call) and
 * what the session has cost, for `usage_update`; and the tokens of each ACP turn, for
 * the prompt response.
 */
export class UsageTracker {
  private contextInput = 0;
  private contextOutput = 0;
  private contextWindow = 0;
  /** Cost of earlier Claude processes of this session (a handoff starts a new one). */
  private costBefore = 0;
  private costCurrent = 0;

  /** Main-thread stream events carry each API call's usage. */
  observe(event: StreamEvent): void {
    if (event.type === "message_start") {
      const usage = event.message.usage as CallUsage;
      this.contextInput =
        n(usage.input_tokens) +
        n(usage.cache_read_input_tokens) +
        n(usage.cache_creation_input_tokens);
      this.contextOutput = n(usage.output_tokens);
    } else if (event.type === "message_delta") {
      this.contextOutput = n((event.usage as CallUsage).output_tokens);
    }
  }

  /** A result carries the model's context window and the query's running cost. */
  observeResult(result: SDKResultMessage, model: string | undefined): void {
    const models = Object.entries(result.modelUsage);
    const main = (model && result.modelUsage[model]) || models.map(([, usage]) => usage)[0];
    if (main?.contextWindow) this.contextWindow = main.contextWindow;
    this.costCurrent = n(result.total_cost_usd);
  }

  /** A compaction left the conversation `tokens` long: that is the context now. */
  compacted(tokens: number): UsageUpdate | undefined {
    this.contextInput = tokens;
    this.contextOutput = 0;
    return this.update();
  }

  /** A new Claude process starts counting its cost from zero. */
  startNewProcess(): void {
    this.costBefore += this.costCurrent;
    this.costCurrent = 0;
  }

  update(): UsageUpdate | undefined {
    if (!this.contextWindow) return undefined;
    return {
      used: this.contextTokens(),
      size: this.contextWindow,
      cost: { amount: this.costBefore + this.costCurrent, currency: "USD" },
    };
  }

  /** The tokens the next request re-sends: the conversation's size now. */
  contextTokens(): number {
    return this.contextInput + this.contextOutput;
  }

  /** Share of the context window in use, when known (ExitPlanMode's clear-context label). */
  usedPercent(): number | undefined {
    if (!this.contextWindow) return undefined;
    return (this.contextTokens() / this.contextWindow) * 100;
  }
}

/** Adds one result's per-turn usage to an ACP turn's total. */
export function addTurnUsage(total: Usage | undefined, result: SDKResultMessage): Usage {
  const usage = result.usage as CallUsage & {
    output_tokens_details?: { thinking_tokens?: number };
  };
  const input = n(usage.input_tokens);
  const output = n(usage.output_tokens);
  const cachedRead = n(usage.cache_read_input_tokens);
  const cachedWrite = n(usage.cache_creation_input_tokens);
  const thought = n(usage.output_tokens_details?.thinking_tokens);
  return {
    inputTokens: n(total?.inputTokens) + input,
    outputTokens: n(total?.outputTokens) + output,
    cachedReadTokens: n(total?.cachedReadTokens) + cachedRead,
    cachedWriteTokens: n(total?.cachedWriteTokens) + cachedWrite,
    thoughtTokens: n(total?.thoughtTokens) + thought,
    totalTokens: n(total?.totalTokens) + input + output + cachedRead + cachedWrite,
  };
}
