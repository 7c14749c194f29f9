import type { ToolCall, ToolCallStatus, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../../acp/session-client.js";
import type { ClaudeQuery } from "../../claude/query.js";
import { log } from "../../logger.js";
import {
  backgroundCommand,
  backgroundExit,
  commandResult,
  runsInTerminal,
  terminalContent,
  terminalExitMeta,
  terminalOutputMeta,
  terminalResultUpdate,
  terminalOutputKey,
  terminalToolCall,
  type TerminalExit,
  type TerminalOutputKey,
  withoutExitNote,
} from "../../tools/renderers/terminal.js";
import { claudeCodeMeta } from "../../tools/tool-call.js";
import type { ToolResultBlock } from "../../tools/types.js";
import { resultOutput, type ShownOutput, unshownOutput } from "./command-output.js";
import { OutputTail } from "./output-tail.js";
import type { TrackedToolCall } from "../stream/tool-calls.js";

/** How often a background command's output file is read for new output. */
export const OUTPUT_POLL_MS = 250;
/** Ends of tasks not (yet) followed that are remembered, in case their result comes late. */
const REMEMBERED_ENDS = 100;

export interface TerminalsHost {
  readonly client: SessionClient;
  /** Sends an update; a client that went away is logged, not fatal. */
  send(update: () => Promise<void>): Promise<void>;
  /** The live Claude process, whose background commands are followed. */
  process(): ClaudeQuery | undefined;
  /** The background task of a command, as Claude Code's task events name it. */
  backgroundTask(toolUseId: string): string | undefined;
  /** The tool call of a tool use, while it is tracked. */
  call(toolUseId: string): TrackedToolCall | undefined;
  /** The file a running task of the live process writes its output to, if there is one. */
  taskOutputFile(taskId: string): Promise<string | undefined>;
}

/** Claude Code's report that a command runs as a task while the turn waits for it. */
export interface ForegroundTask {
  task_id: string;
  tool_use_id: string;
}

/** Claude Code's report that a task (a background command) ended. */
export interface TaskEnd {
  task_id: string;
  status: "completed" | "failed" | "stopped";
  summary: string;
}

/** A background command whose output file is read as it grows. */
interface Follower {
  call: TrackedToolCall;
  /** The process that runs the command: its task ends with it. */
  process: ClaudeQuery | undefined;
  tail: OutputTail;
  /** What of the file was sent, in order. */
  shown: string;
  timer: NodeJS.Timeout | undefined;
  /** Reads and sends run one after another. */
  chain: Promise<void>;
  ended: boolean;
}

/**
 * The session's commands shown as terminals (`_meta.terminal_output` clients): the tool
 * call opens a terminal, the result fills and ends it, and a command that goes on in the
 * background keeps it open, its output file streamed as it grows, until its task ends.
 * A foreground command that runs long enough for Claude Code to report it as a task has
 * its output file streamed too while it runs; its result then brings only its exit.
 * With no output key (the client did not declare the signal) it changes nothing.
 */
export class SessionTerminals {
  private readonly followers = new Map<string, Follower>();
  /** Foreground commands whose output file is followed: tool use id → task id. */
  private readonly foreground = new Map<string, string>();
  /** What followed foreground commands showed from their file: their result sends the rest. */
  private readonly streamed = new Map<string, ShownOutput>();
  /** Tasks that ended before their command's result came. */
  private readonly endedEarly = new Map<string, TerminalExit>();
  /** Where the client reads output; undefined: it did not ask for terminals. */
  private readonly key: TerminalOutputKey | undefined;

  constructor(
    private readonly host: TerminalsHost,
    private readonly cwd: string,
    private readonly pollMs = OUTPUT_POLL_MS,
  ) {
    this.key = terminalOutputKey(host.client.capabilities._meta);
  }

  private shows(toolName: string): boolean {
    return this.key !== undefined && runsInTerminal(toolName);
  }

  /** A new tool call as the client first sees it: a command opens a terminal. */
  announce(toolCall: ToolCall, toolName: string): ToolCall {
    return this.shows(toolName) ? terminalToolCall(toolCall, this.cwd) : toolCall;
  }

  /** A refinement keeps the terminal as the command's content. */
  refine<T extends ToolCallUpdate>(update: T, toolName: string): T {
    return this.shows(toolName)
      ? { ...update, content: terminalContent(update.toolCallId) }
      : update;
  }

  /**
   * Sends a command's result as terminal output and exit; false when the call is not shown
   * as a terminal (the caller sends `update` as it is). A command that went on in the
   * background completes its tool call but keeps its terminal open.
   */
  async result(
    call: TrackedToolCall,
    block: ToolResultBlock,
    structured: unknown,
    update: ToolCallUpdate & { status: ToolCallStatus },
  ): Promise<boolean> {
    if (!this.key || !runsInTerminal(call.name)) return false;
    const known = this.host.backgroundTask(call.id);
    const background = block.is_error ? undefined : backgroundCommand(block, structured, known);
    const meta = claudeCodeMeta(call);
    const followed = this.foreground.get(call.id);
    if (background) {
      await this.clientOf(call).updateToolCall(terminalResultUpdate(update, meta, undefined));
      // A followed command moved to the background: its file is followed on, as its task's.
      if (followed !== undefined && this.followers.has(background.taskId)) {
        this.foreground.delete(call.id);
      } else {
        this.follow(call, background.taskId, background.outputFile);
      }
      return true;
    }
    if (followed !== undefined) await this.stopFollowing(call.id, followed);
    const client = this.clientOf(call);
    if (call.notRun) {
      // Nothing ran: the terminal shows no output and ends with no exit code.
      const noExit = { exitCode: null, signal: null };
      await client.updateToolCall(terminalResultUpdate(update, meta, noExit));
      return true;
    }
    const { output, exit, savedOutput } = commandResult(block, structured);
    const shown = this.streamed.get(call.id);
    this.streamed.delete(call.id);
    const rest = unshownOutput(shown, await resultOutput(output, savedOutput));
    if (rest) await client.updateToolCall(this.outputUpdate(call, this.key, rest));
    await client.updateToolCall(terminalResultUpdate(update, meta, exit));
    return true;
  }

  /**
   * A command the turn closed without a result: the terminal stays its content, says why
   * as its last output, and ends with an unknown exit, so the client's terminal closes.
   * False when the call is not shown as a terminal.
   */
  async unfinished(
    call: TrackedToolCall,
    update: ToolCallUpdate,
    reason: string,
  ): Promise<boolean> {
    if (!this.key || !runsInTerminal(call.name)) return false;
    const followed = this.foreground.get(call.id);
    if (followed !== undefined) await this.stopFollowing(call.id, followed);
    this.streamed.delete(call.id);
    const client = this.clientOf(call);
    await client.updateToolCall(this.outputUpdate(call, this.key, `${reason}\n`));
    await client.updateToolCall(
      terminalResultUpdate(update, claudeCodeMeta(call), { exitCode: null, signal: null }),
    );
    return true;
  }

  /**
   * A foreground command runs as a task: its output file is followed until its result
   * (or its task's end) comes.
   */
  async foregroundStarted(task: ForegroundTask): Promise<void> {
    const call = this.host.call(task.tool_use_id);
    if (!this.key || !call || !runsInTerminal(call.name) || this.followers.has(task.task_id)) {
      return;
    }
    const file = await this.host.taskOutputFile(task.task_id);
    // The result, or the task's end, may have come while the file was looked for.
    if (this.endedEarly.delete(task.task_id)) return;
    if (!file || !this.host.call(task.tool_use_id) || this.followers.has(task.task_id)) return;
    this.foreground.set(call.id, task.task_id);
    this.follow(call, task.task_id, file);
  }

  /** A background task ended: its last output, then its exit. */
  async taskEnded(task: TaskEnd): Promise<void> {
    const exit = backgroundExit(task.status, task.summary);
    const follower = this.followers.get(task.task_id);
    // A foreground command's exit comes with its result.
    if (follower && this.foreground.get(follower.call.id) === task.task_id) {
      await this.stopFollowing(follower.call.id, task.task_id);
      return;
    }
    if (!follower) {
      this.endedEarly.set(task.task_id, exit);
      const oldest = this.endedEarly.keys().next().value;
      if (this.endedEarly.size > REMEMBERED_ENDS && oldest !== undefined) {
        this.endedEarly.delete(oldest);
      }
      return;
    }
    await this.end(task.task_id, follower, exit);
  }

  /**
   * A Claude process ended (crashed, or replaced by the session: a restart, a plan handoff):
   * its background commands ended with it, how is unknown, and no task end will come.
   */
  async processEnded(process: ClaudeQuery): Promise<void> {
    const unknown = { exitCode: null, signal: null };
    await Promise.all(
      [...this.followers]
        .filter(([, follower]) => follower.process === process)
        .map(([taskId, follower]) => this.end(taskId, follower, unknown)),
    );
  }

  /** The session closed: nothing more is read or sent. */
  close(): void {
    for (const follower of this.followers.values()) {
      follower.ended = true;
      clearTimeout(follower.timer);
    }
    this.followers.clear();
    this.foreground.clear();
    this.streamed.clear();
  }

  /**
   * A followed foreground command is done: the rest of its file is sent, and no exit. What
   * was sent is kept for its result, which brings what the file no longer holds.
   */
  private async stopFollowing(toolUseId: string, taskId: string): Promise<void> {
    this.foreground.delete(toolUseId);
    const follower = this.followers.get(taskId);
    if (!follower || follower.ended) return;
    follower.ended = true;
    clearTimeout(follower.timer);
    this.followers.delete(taskId);
    const done = follower.chain.then(async () => {
      await this.sendOutput(follower, true);
      this.streamed.set(toolUseId, { text: follower.shown, full: follower.tail.truncated });
    });
    follower.chain = done;
    await done;
  }

  private follow(call: TrackedToolCall, taskId: string, outputFile: string): void {
    const follower: Follower = {
      call,
      process: this.host.process(),
      tail: new OutputTail(outputFile),
      shown: "",
      timer: undefined,
      chain: Promise.resolve(),
      ended: false,
    };
    this.followers.set(taskId, follower);
    const exit = this.endedEarly.get(taskId);
    this.endedEarly.delete(taskId);
    if (exit) {
      void this.end(taskId, follower, exit);
      return;
    }
    const tick = () => {
      follower.chain = follower.chain.then(async () => {
        if (follower.ended) return;
        await this.sendOutput(follower, false);
        if (!follower.ended) follower.timer = setTimeout(tick, this.pollMs).unref();
      });
    };
    tick();
  }

  private async end(taskId: string, follower: Follower, exit: TerminalExit): Promise<void> {
    if (follower.ended) return;
    follower.ended = true;
    clearTimeout(follower.timer);
    this.followers.delete(taskId);
    const done = follower.chain.then(async () => {
      await this.sendOutput(follower, true);
      const { call } = follower;
      await this.host.send(() =>
        this.clientOf(call).updateToolCall({
          toolCallId: call.id,
          _meta: { ...claudeCodeMeta(call), ...terminalExitMeta(call.id, exit) },
        }),
      );
    });
    follower.chain = done;
    await done;
  }

  private async sendOutput(follower: Follower, final: boolean): Promise<void> {
    let data: string;
    try {
      data = withoutExitNote(await follower.tail.read(final));
    } catch (error) {
      log.debug(`could not read the output of ${follower.call.id}`, error);
      return;
    }
    const { key } = this;
    if (!data || !key) return;
    follower.shown += data;
    await this.host.send(() =>
      this.clientOf(follower.call).updateToolCall(this.outputUpdate(follower.call, key, data)),
    );
  }

  /** A subagent's command lives in its child session, when the client shows those. */
  private clientOf(call: TrackedToolCall): SessionClient {
    return this.host.client.forThread(call.parentToolUseId);
  }

  private outputUpdate(
    call: TrackedToolCall,
    key: TerminalOutputKey,
    data: string,
  ): ToolCallUpdate {
    return {
      toolCallId: call.id,
      _meta: { ...claudeCodeMeta(call), ...terminalOutputMeta(call.id, key, data) },
    };
  }
}
