// The client's `initialize`: what it declares, what it learns of the agent (who it is, whether
// it takes steers), and how long it waits for the answer.
import { methods, PROTOCOL_VERSION, type ClientContext } from "@agentclientprotocol/sdk";
import { steeringSupported } from "../acp/steering.js";
import { PACKAGE_VERSION } from "../version.js";
import { cutAgentInfo, cutModes } from "./incoming.js";
import { oneLine } from "./style.js";
import type { SessionView } from "./view/session-view.js";
import { PROMPT_SUGGESTIONS_CAPABILITY } from "./prompt-suggestion.js";

export const CLIENT_NAME = "claude-agent-acp-client";

const INITIALIZE_TIMEOUT_MS = 30_000;

/** `promise`, or an error saying `what` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `initialize` and says whom the client is connected to. */
export async function initialize(
  agent: ClientContext,
  view: SessionView,
  timeout = INITIALIZE_TIMEOUT_MS,
): Promise<{ steering: boolean }> {
  const init = await within(
    agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      // Form elicitation: the agent may ask questions (AskUserQuestion) as forms.
      // terminal_output: a command's output arrives as it runs (shown live, see SessionView);
      // prompt suggestions: the agent's guess at the next prompt (prompt-suggestion.ts).
      clientCapabilities: {
        elicitation: { form: {} },
        _meta: { terminal_output: true, ...PROMPT_SUGGESTIONS_CAPABILITY },
      },
      clientInfo: { name: CLIENT_NAME, version: PACKAGE_VERSION },
    }),
    timeout,
    `The agent did not answer initialize within ${timeout / 1000} s: is the command an ACP agent (speaking ACP on its stdin and stdout)?`,
  );
  const steering = steeringSupported(init._meta);
  const info = cutAgentInfo(init.agentInfo);
  view.note(
    `Connected to ${info ? `${oneLine(info.title ?? info.name)} (${oneLine(info.name)} ${oneLine(info.version)})` : "the agent"}, ACP v${init.protocolVersion}`,
  );
  return { steering };
}

/** initialize, then session/new, said on the view; a mode asked for must be one offered. */
export async function openSession(
  agent: ClientContext,
  view: SessionView,
  options: { cwd: string; mode?: string; initializeTimeoutMs?: number },
): Promise<{ sessionId: string; steering: boolean }> {
  const agentInfo = await initialize(agent, view, options.initializeTimeoutMs);
  const session = await agent.request(methods.agent.session.new, {
    cwd: options.cwd,
    mcpServers: [],
  });
  const modes = cutModes(session.modes);
  view.setModes(modes);
  const mode = modes?.availableModes.find((m) => m.id === modes.currentModeId);
  view.note(`Session in ${options.cwd}${mode ? ` · mode: ${oneLine(mode.name)}` : ""}`);
  if (options.mode) {
    const offered = session.modes?.availableModes.map((m) => m.id) ?? [];
    if (!offered.includes(options.mode)) {
      const shown = view.availableModes().map((m) => oneLine(m.id));
      throw new Error(
        shown.length
          ? `No mode "${oneLine(options.mode)}": this agent offers ${shown.join(", ")}`
          : `No mode "${oneLine(options.mode)}": this agent offers no modes`,
      );
    }
  }
  return { sessionId: session.sessionId, steering: agentInfo.steering };
}
