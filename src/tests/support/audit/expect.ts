/** Finding recorded asks and the tool uses they belong to. */
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import type { AuditRun, RecordedAsk } from "./run.js";

/** The first ask for `toolName` whose input matches; fails with the asks that did arrive. */
export function askOf(
  run: AuditRun,
  toolName: string,
  matches: (input: Record<string, unknown>) => boolean = () => true,
): RecordedAsk {
  const found = run.asks.find((a) => a.toolName === toolName && matches(a.input));
  if (found) return found;
  const seen = run.asks.map((a) => `${a.toolName} ${JSON.stringify(a.input)}`).join("\n  ");
  throw new Error(`Claude Code did not ask about ${toolName} as expected. Asks:\n  ${seen}`);
}

/** Every tool_use block the model sent, as the SDK stream reports them. */
export function toolUses(
  messages: readonly SDKMessage[],
): Array<{ id: string; name: string; input: unknown }> {
  const uses: Array<{ id: string; name: string; input: unknown }> = [];
  for (const message of messages) {
    if (message.type !== "assistant") continue;
    for (const block of message.message.content) {
      if (block.type === "tool_use")
        uses.push({ id: block.id, name: block.name, input: block.input });
    }
  }
  return uses;
}

/** The tool_result Claude Code sent back for a tool use, as text. */
export function toolResultText(
  messages: readonly SDKMessage[],
  toolUseId: string,
): string | undefined {
  for (const message of messages) {
    if (message.type !== "user" || typeof message.message.content === "string") continue;
    for (const block of message.message.content) {
      if (block.type !== "tool_result" || block.tool_use_id !== toolUseId) continue;
      const content = block.content;
      if (typeof content === "string") return content;
      return (content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("\n");
    }
  }
  return undefined;
}

/** Claude Code's `status` system messages that report a permission mode, in order. */
export function reportedModes(messages: readonly SDKMessage[]): string[] {
  return messages.flatMap((m) =>
    m.type === "system" && m.subtype === "status" && typeof m.permissionMode === "string"
      ? [m.permissionMode]
      : [],
  );
}
