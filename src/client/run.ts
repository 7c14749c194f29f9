// Runs the terminal client against an agent command: terminal setup, the agent process,
// Ctrl-C, and cleanup. Shared by the bin (index.ts) and the demo.
import { TerminalClient, type ClientOptions } from "./client.js";
import { errorText } from "./text-limits.js";
import { spawnAgent, type AgentProcess } from "./agent/agent-process.js";
import { connectAgent } from "./agent/remote-agent.js";
import { terminalKeys } from "./input.js";
import { captureConsole } from "./library-log.js";
import type { AnswerPolicy } from "./policy.js";
import type { Output } from "./screen.js";
import { colorWanted, createStyle } from "./style.js";

export interface Terminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export interface RunOptions extends Omit<ClientOptions, "answer"> {
  /** undefined: ask when stdin and stdout are terminals, else reject. */
  answer: AnswerPolicy | undefined;
  agentCommand: readonly string[];
  /** The agent served at this URL, with this token, instead of the command. */
  remote?: { url: string; token: string };
  agentEnv: NodeJS.ProcessEnv;
  /** Forced colours on or off; undefined: by terminal and NO_COLOR / FORCE_COLOR. */
  color?: boolean;
  /** Where the agent command runs (default: our own cwd, not the session's). */
  agentCwd?: string;
  /** Printed before the session starts (the demo's introduction). */
  banner?: string[];
}

/** How long a failed request waits for the agent's exit, which explains the failure better. */
const EXIT_GRACE_MS = 500;
const sleep = (ms: number): Promise<undefined> =>
  new Promise((resolve) => setTimeout(() => resolve(undefined), ms));

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  let text = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** Resolves with the exit code: 0, 1 when something failed, 130 after a forced quit. */
export async function runTerminalClient(terminal: Terminal, options: RunOptions): Promise<number> {
  const { stdin, stdout } = terminal;
  const tty = stdin.isTTY === true && stdout.isTTY === true;
  const answer = options.answer ?? (tty ? "interactive" : "reject");
  const output: Output = {
    write: (text) => void (outputGone || stdout.write(text)),
    columns: () => (stdout.isTTY ? stdout.columns || 100 : 120),
    rows: () => (stdout.isTTY ? stdout.rows || 40 : 40),
  };
  const style = createStyle(options.color ?? colorWanted(stdout.isTTY === true, options.agentEnv));
  const keys = answer === "interactive" ? terminalKeys(stdin, stdout) : undefined;
  let quitWith: (code: number) => void = () => undefined;
  const quit = new Promise<number>((resolve) => {
    quitWith = resolve;
  });
  // The terminal closed (EIO) or a pipe's reader left (EPIPE): nothing more can be shown, and
  // an unhandled error would end the process before the agent is stopped. The client quits
  // as on a hang-up; the listener stays, for what its caller writes after (the demo's end).
  let outputGone = false;
  const terminalGone = (): void => {
    outputGone = true;
    quitWith(129);
  };
  stdout.on("error", terminalGone);
  stdin.on("error", terminalGone);
  let forced = false;
  const forceQuit = (): void => {
    forced = true;
    quitWith(130);
  };
  const terminalClient = new TerminalClient(
    {
      output,
      style,
      spinner: stdout.isTTY === true,
      ...(keys ? { keys } : {}),
      readStdin: () => readAll(stdin),
      forceQuit: () => forceQuit(),
    },
    { ...options, answer },
  );
  const { view } = terminalClient;
  if (options.banner) view.screen.lines(options.banner);

  let agent: AgentProcess;
  try {
    agent = options.remote
      ? await connectAgent(options.remote.url, options.remote.token)
      : spawnAgent(options.agentCommand, {
          ...(options.agentCwd ? { cwd: options.agentCwd } : {}),
          env: options.agentEnv,
        });
  } catch (error) {
    view.error(
      `Could not ${options.remote ? "connect to" : "start"} the agent: ${errorText(error)}`,
    );
    return 1;
  }
  let finished = false;
  const agentGone = agent.exited.then((exit): number => {
    if (finished) return 0;
    const what = exit.error
      ? `Could not start the agent (${options.agentCommand.join(" ")}): ${exit.error.message}`
      : `The agent exited (${exit.signal ?? `code ${exit.code}`})`;
    view.error(what, agent.stderrTail());
    return 1;
  });
  // Without raw mode, Ctrl-C is a signal: the first cancels the turn, the next quits.
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) forceQuit();
    interrupted = true;
    terminalClient.cancelTurn();
  };
  process.on("SIGINT", onSigint);
  // Killed or hung up: the agent is in its own process group, so it would be left running.
  const onTerminate = (signal: NodeJS.Signals): void => quitWith(signal === "SIGHUP" ? 129 : 143);
  process.on("SIGTERM", onTerminate);
  process.on("SIGHUP", onTerminate);
  // What the ACP SDK logs (a notification it could not handle) is shown as the client's own
  // lines, never written raw over the status line or a box.
  const releaseConsole = captureConsole({
    error: (text) => view.error(text),
    note: (text) => view.note(text),
  });
  const connection = terminalClient.app().connect(agent.stream);
  let code: number;
  try {
    code = await Promise.race([
      terminalClient.run(connection.agent).catch(async (error: unknown) => {
        // A write to an agent that just exited fails (EPIPE, connection closed) before its
        // exit is seen: the exit, reported by `agentGone`, is what the user needs to know.
        const exit = await Promise.race([agent.exited, sleep(EXIT_GRACE_MS)]);
        if (!finished && !exit) view.error(errorText(error), agent.stderrTail());
        return 1;
      }),
      agentGone,
      quit,
    ]);
  } finally {
    finished = true;
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onTerminate);
    process.off("SIGHUP", onTerminate);
    keys?.close();
    terminalClient.close();
    if (stdout.isTTY) stdout.write("\x1b[?25h");
    connection.close();
    // Quitting by force (Ctrl-C twice, or at start-up): the agent is not waited for.
    try {
      await agent.stop(forced ? 0 : undefined);
    } finally {
      releaseConsole();
    }
  }
  return code;
}
