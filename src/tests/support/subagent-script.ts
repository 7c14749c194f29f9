// What Claude Code sends when a subagent runs, scripted for the fake: its launch, its task
// events, and one run that asks to run `ls` and answers. Shared by the child-session tests of
// each form (ACP's unstable schema, JetBrains AIR's draft).
import { methods } from "@agentclientprotocol/sdk/unstable";
import { assistant, result, sdkMessage, toolResult, toolUse } from "./fake-claude.js";
import { settle } from "./settle.js";
import { subagentClient } from "./subagent-client.js";

export const AGENT_CALL = "toolu_agent";
export const LAUNCH = {
  description: "Look around",
  prompt: "List the files",
  subagent_type: "Explore",
};

/** A subagent's run starts: its launch, or (`call` a SendMessage) its resumption. */
export function taskStarted(background: boolean, call = AGENT_CALL, prompt = LAUNCH.prompt) {
  return sdkMessage({
    type: "system",
    subtype: "task_started",
    task_id: "task-1",
    tool_use_id: call,
    description: LAUNCH.description,
    subagent_type: LAUNCH.subagent_type,
    task_type: "local_agent",
    prompt,
    is_backgrounded: background,
  });
}

export function taskNotification(
  status: "completed" | "failed" | "stopped",
  summary = "",
  call = AGENT_CALL,
) {
  return sdkMessage({
    type: "system",
    subtype: "task_notification",
    task_id: "task-1",
    tool_use_id: call,
    status,
    output_file: "",
    summary,
  });
}

/** The agent's session starts a subagent that asks to run `ls` and answers. */
export async function subagentRuns(
  background: boolean,
  options: Parameters<typeof subagentClient>[0] = {},
) {
  const client = await subagentClient(options);
  const { agent, query, sessionId } = client;
  const response = agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Explore" }],
  });
  await query.waitForSent(1);
  query.emit(toolUse(AGENT_CALL, "Agent", LAUNCH), taskStarted(background));
  if (background) query.emit(toolResult(AGENT_CALL, "Async agent launched successfully."));
  query.emit(toolUse("toolu_ls", "Bash", { command: "ls" }, AGENT_CALL));
  await settle();
  await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_ls" });
  query.emit(
    toolResult("toolu_ls", "a.txt", { parent: AGENT_CALL }),
    assistant("msg-answer", [{ type: "text", text: "There is a.txt." }], {
      parent_tool_use_id: AGENT_CALL,
    }),
  );
  return { ...client, response };
}

/**
 * A second prompt whose turn resumes the subagent with SendMessage: Claude Code runs it again
 * in a run of its own, named by the SendMessage call, and the agent's messages still name the
 * call that launched it. Resolves once the prompt is answered.
 */
export async function sendMessageAgain(
  client: Pick<Awaited<ReturnType<typeof subagentClient>>, "agent" | "query" | "sessionId">,
): Promise<void> {
  const { agent, query, sessionId } = client;
  const again = agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Ask it again" }],
  });
  await query.waitForSent(2);
  query.emit(
    toolUse("toolu_send", "SendMessage", { to: "task-1", message: "And b.txt?" }),
    taskStarted(true, "toolu_send", "And b.txt?"),
    toolResult("toolu_send", '{"success":true}'),
    assistant("msg-again", [{ type: "text", text: "No b.txt." }], {
      parent_tool_use_id: AGENT_CALL,
    }),
    taskNotification("completed", "No b.txt.", "toolu_send"),
    result(),
  );
  await again;
  await settle();
}
