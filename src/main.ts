// The agent behind the bin (index.ts): command line, then ACP on stdio.
import { Readable } from "node:stream";
import { LOGIN_ARGUMENT, parseLoginArguments, type LoginAccount } from "./acp/auth.js";
import { maxMessageBytes } from "./acp/oversized.js";
import { closableStream, stdioStream } from "./acp/stdio-transport.js";
import { batchedWritable } from "./acp/stdout.js";
import { claudeLoginInTerminal } from "./claude/auth-commands.js";
import { endAllClaudeProcesses } from "./claude/child-process.js";
import { resolveClaudeExecutable } from "./claude/executable.js";
import { claudeSide } from "./claude-side.js";
import type { LaunchStart } from "./claude/launch-start.js";
import { log } from "./logger.js";
import { mark } from "./runtime/marks.js";
import { agentConnector, PROTOCOL_ENV, protocolPin, type ProtocolPin } from "./protocols.js";
import { CONNECT_COMMAND, CONNECT_HELP, parseConnectArguments } from "./serve/connect-options.js";
import { parseServeArguments, SERVE_COMMAND, SERVE_HELP } from "./serve/serve-options.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "./version.js";

const HELP = `${PACKAGE_NAME} ${PACKAGE_VERSION}
Serves Claude Code to any ACP (Agent Client Protocol) client over stdio.

Usage: claude-agent-acp [--help] [--version] [--login [--claudeai | --console]]
       claude-agent-acp serve [--listen HOST:PORT] [--token-file F] ...   (serve --help)
       claude-agent-acp connect --url URL --token-file F                  (connect --help)

Speaks ACP as newline-delimited JSON-RPC on stdin/stdout: v1, or the v2 draft to a
client whose initialize asks for protocol version 2; logs go to stderr. Start it from
an ACP client such as Zed (see README.md).

  serve       serve ACP over Streamable HTTP and WebSocket instead, with a token
              (see claude-agent-acp serve --help and README.md)
  connect     ACP on stdio carried to an agent served elsewhere (for clients that
              start agents as commands: Zed, acpx)
  --login     run Claude Code's own login in this terminal, then exit
              (ACP clients with terminal auth do this for you); with a Claude
              account (--claudeai, the default) or Anthropic Console (--console)

Environment:
  ANTHROPIC_API_KEY        API key for Claude Code (or log in with Claude Code)
  ANTHROPIC_BASE_URL       Anthropic API endpoint (default: Anthropic's)
  CLAUDE_CODE_EXECUTABLE   path of the claude binary (default: the one the SDK ships)
  CLAUDE_CONFIG_DIR        Claude Code's configuration directory (default: ~/.claude)
  CLAUDE_AGENT_ACP_LOG     log level on stderr: error | warn | info | debug (default: info)
  CLAUDE_AGENT_ACP_PREWARM 1 keeps a prewarmed Claude Code process for the next
                           session/new (default: off; it holds one more process)
  CLAUDE_AGENT_ACP_LAUNCH_START
                           1 starts the last new session's Claude Code, in its folder
                           (its SessionStart hooks run), as the agent starts, for the
                           first session/new (default: off)
  CLAUDE_AGENT_ACP_EARLY_START
                           0: never start Claude Code ahead of the SDK (default: from
                           how it was started last time)
  CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS
                           1: trust every folder, as before workspace trust (CI, containers):
                           a project's settings, hooks and MCP servers load unasked
  CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS
                           close an idle session's Claude Code process after this many
                           ms; the next prompt resumes it (default: 900000; 0: never)
  CLAUDE_AGENT_ACP_HANG_TIMEOUT_MS
                           a running turn's Claude Code process silent this long must
                           answer a status request within this long again, or it is
                           ended and the session recovers (default: 30000)
  CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES
                           largest message read from the client; a longer one is
                           answered with an error and skipped (default: 33554432, 32 MiB)
  ${PROTOCOL_ENV}
                           1: ACP v1 only (any version asked gets v1); 2: the v2
                           draft only (default: both; v2 for a client that asks for 2)
`;

/** How long Claude Code processes have to exit on their own when the agent exits. */
const EXIT_WAIT_MS = 200;

/**
 * The agent, given the command line and the Claude Code the bin started at its launch for
 * the first new session (launch-start.ts), if it did.
 */
export function main(argv: readonly string[], launched?: LaunchStart): void {
  mark("agent-loaded");
  if (argv[0] === SERVE_COMMAND || argv[0] === CONNECT_COMMAND) {
    void (argv[0] === SERVE_COMMAND ? serveCommand : connectCommand)(argv.slice(1));
    return;
  }
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(HELP);
      return;
    }
    if (arg === "--version" || arg === "-v") {
      process.stdout.write(`${PACKAGE_VERSION}\n`);
      return;
    }
    if (arg === LOGIN_ARGUMENT) {
      const account = parseLoginArguments(argv);
      if (account) void login(account);
      else usageError(argv.join(" "));
      return;
    }
    usageError(arg);
    return;
  }

  let pin: ProtocolPin | undefined;
  try {
    pin = protocolPin(process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
    return;
  }
  const claude = claudeSide(launched);
  const connector = agentConnector(claude.deps, pin);
  const { stream, close } = closableStream(
    stdioStream(
      batchedWritable(process.stdout),
      Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
      maxMessageBytes(process.env),
    ),
  );
  const connection = connector.connect(stream);
  log.info(`${PACKAGE_NAME} ${PACKAGE_VERSION} ready on stdio`);
  if (process.stdin.isTTY) {
    // Started by hand: ACP speaks JSON-RPC on stdin, so say what starts it.
    process.stderr.write(
      `${PACKAGE_NAME} is an ACP agent: an ACP client starts it and talks JSON-RPC on stdin/stdout.\nTry: claude-agent-acp-client -- ${PACKAGE_NAME}   (Ctrl-D quits)\n`,
    );
  }
  const shutdown = (): void => close();
  // The client closed its end of our stdout: nothing more can be said to it.
  process.stdout.on("error", () => shutdown());
  void connection.closed.then(() => claude.end());
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  void connection.closed.then(async () => {
    // The client is gone: the sessions closed their Claude Code processes. Those not gone
    // shortly after (stopped, hung) are ended, so that none outlives the agent.
    await new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS));
    await endAllClaudeProcesses();
    process.exit(0);
  });
}

/** `serve`: its arguments, then the server (loaded only for it). */
function serveCommand(argv: readonly string[]): Promise<void> {
  return subcommand("serve", parseServeArguments(argv), SERVE_HELP, async ({ options }) => {
    const pin = protocolPin(process.env);
    const { serve } = await import("./serve/serve.js");
    await serve(options, pin);
  });
}

/** `connect`: stdio carried to a served agent (loaded only for it). */
function connectCommand(argv: readonly string[]): Promise<void> {
  return subcommand("connect", parseConnectArguments(argv), CONNECT_HELP, async (parsed) => {
    const { connect } = await import("./serve/connect.js");
    process.exit(await connect(parsed.url, parsed.tokenFile));
  });
}

/** A command of the bin's own: its help, or its arguments' mistake (exit 2), or it runs. */
async function subcommand<T extends { kind: string }>(
  name: string,
  parsed: T | { kind: "help" } | { kind: "error"; message: string },
  help: string,
  run: (parsed: T) => Promise<void>,
): Promise<void> {
  if (parsed.kind === "help") {
    process.stdout.write(help);
    return;
  }
  try {
    if ("message" in parsed && parsed.kind === "error") throw new Error(parsed.message);
    await run(parsed as T);
  } catch (error) {
    process.stderr.write(
      `${PACKAGE_NAME} ${name}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 2;
  }
}

function usageError(args: string): void {
  process.stderr.write(`Unknown argument: ${args}\n\n${HELP}`);
  process.exitCode = 2;
}

async function login(account: LoginAccount): Promise<void> {
  try {
    process.exitCode = await claudeLoginInTerminal(
      resolveClaudeExecutable(process.env),
      process.env,
      account,
    );
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
