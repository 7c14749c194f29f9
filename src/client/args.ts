// Command-line arguments of claude-agent-acp-client.
import { ANSWER_POLICIES, isAnswerPolicy, type AnswerPolicy } from "./policy.js";

export const HELP = `Usage: claude-agent-acp-client [options] [prompt...] -- <agent command> [args...]
       claude-agent-acp-client [options] [prompt...] --url <url> --token-file <file>

A terminal ACP (Agent Client Protocol) client. It starts the agent command and speaks ACP v1
to it over stdio, or connects to an agent served on the network (claude-agent-acp serve);
it opens one session and sends the prompt. It shows streamed text, tool calls
(diffs in colour), plans and mode changes, and asks you about permission requests and
questions (form elicitation). Without a prompt it asks for prompts (on a terminal) or reads
one from stdin.

Options:
  --answer <policy>  answer without asking: ${ANSWER_POLICIES.join(" | ")}
                     (chosen by the options' standard kind; questions get their first
                     choice, except with cancel). Default: ask on a terminal, else reject.
  --feedback <text>  feedback sent with a rejection chosen by --answer
  --cwd <dir>        working directory of the session (default: the current directory)
  --mode <id>        switch the session to this mode first (session/set_mode), e.g. plan
  --prompt <text>    a prompt; repeat it for several turns
  --url <url>        the agent served at this URL instead of a command: ws:// or wss://
                     (WebSocket), http:// or https:// (Streamable HTTP); path default /acp
  --token-file <f>   the served agent's token: the file's first line (with --url)
  --no-color         no colours (NO_COLOR=1 does the same; FORCE_COLOR=1 forces them)
  -h, --help         show this help
  -v, --version      show the version

Keys: ↑/↓ or 1-9 choose, Enter confirms, Esc cancels the request and the turn (ACP
session/cancel), and a rejection asks for optional feedback for Claude. While Claude works,
Esc or Ctrl-C cancels the turn (Ctrl-C twice quits), and you can type: Enter sends the text
into the running turn when the agent can steer (_session/steering), else queues it; Tab queues
it as the next prompt. Between turns: /mode <id> switches mode, /rewind goes back to the end
of a turn (asking about the files), ↑ then Ctrl-R runs a recalled prompt again as edited
(session/edit_prompt), /exit or Ctrl-D quits.

Examples:
  claude-agent-acp-client -- claude-agent-acp
  claude-agent-acp-client --answer allow-once "Run the tests" -- node dist/index.js
  echo "Summarize README.md" | claude-agent-acp-client --answer reject -- claude-agent-acp
  claude-agent-acp-client --url ws://127.0.0.1:8765/acp --token-file ~/.config/acp-token
`;

export interface RunArgs {
  agentCommand: string[];
  /** The served agent, instead of a command. */
  url?: string;
  tokenFile?: string;
  prompts: string[];
  answer: AnswerPolicy | undefined;
  feedback: string | undefined;
  cwd: string | undefined;
  mode: string | undefined;
  color: boolean | undefined;
}

export type ParsedArgs =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string }
  | { kind: "run"; args: RunArgs };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const split = argv.indexOf("--");
  const own = split === -1 ? argv : argv.slice(0, split);
  const agentCommand = split === -1 ? [] : argv.slice(split + 1);
  const args: RunArgs = {
    agentCommand,
    prompts: [],
    answer: undefined,
    feedback: undefined,
    cwd: undefined,
    mode: undefined,
    color: undefined,
  };
  const words: string[] = [];
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    const value = (): string | undefined => {
      const next = own[i + 1];
      if (next === undefined) return undefined;
      i++;
      return next;
    };
    switch (arg) {
      case "-h":
      case "--help":
        return { kind: "help" };
      case "-v":
      case "--version":
        return { kind: "version" };
      case "--no-color":
        args.color = false;
        break;
      case "--answer": {
        const policy = value();
        if (policy === undefined || !isAnswerPolicy(policy)) {
          return { kind: "error", message: `--answer takes one of: ${ANSWER_POLICIES.join(", ")}` };
        }
        args.answer = policy;
        break;
      }
      case "--feedback":
      case "--cwd":
      case "--mode":
      case "--url":
      case "--token-file":
      case "--prompt": {
        const text = value();
        if (text === undefined) return { kind: "error", message: `${arg} needs a value` };
        if (arg === "--feedback") args.feedback = text;
        else if (arg === "--url") args.url = text;
        else if (arg === "--token-file") args.tokenFile = text;
        else if (arg === "--cwd") args.cwd = text;
        else if (arg === "--mode") args.mode = text;
        else args.prompts.push(text);
        break;
      }
      default:
        if (arg.startsWith("-")) return { kind: "error", message: `unknown option ${arg}` };
        words.push(arg);
    }
  }
  if (words.length > 0) args.prompts.unshift(words.join(" "));
  if (args.url !== undefined) {
    if (agentCommand.length > 0) {
      return { kind: "error", message: "--url or an agent command after --, not both" };
    }
    if (args.tokenFile === undefined) {
      return { kind: "error", message: "--url needs --token-file: the served agent's token" };
    }
  } else if (args.tokenFile !== undefined) {
    return { kind: "error", message: "--token-file goes with --url" };
  } else if (agentCommand.length === 0) {
    return { kind: "error", message: "no agent command: put it after --, or --url" };
  }
  return { kind: "run", args };
}
