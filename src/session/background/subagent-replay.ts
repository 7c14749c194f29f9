import type { SessionChildren } from "../../acp/session-client.js";
import type { ClaudeSubagentTranscript, ClaudeTranscripts } from "../../claude/transcripts.js";
import { SUBAGENT_TOOLS } from "../../tools/renderers/agent.js";
import { nextTurn } from "../../util/next-turn.js";
import { isRecord, stringField } from "../../tools/input.js";
import { isClaudeCodeNote, type ReplayedMessage } from "../stream/saved-messages.js";
import type { StreamTranslator } from "../stream/stream.js";
import type { ConversationReader } from "../lifecycle/saved.js";
import type { TurnQueue } from "../turns/turn-queue.js";
import { UNFINISHED } from "../turns/unfinished.js";
import { outcomeOf, resultOutcome, type SavedAgent, type Subagents } from "./subagents.js";

/** The tool that sends an earlier subagent a message, resuming it when it is idle. */
const SEND_MESSAGE = "SendMessage";

/** What replaying a saved conversation needs of its session. */
export interface ReplayHost {
  transcripts: ConversationReader;
  cwd: string;
  stream: StreamTranslator;
  /** The session's child sessions, for a client that shows subagents so. */
  children: SessionChildren | undefined;
  subagents: Subagents;
}

/**
 * One saved conversation as updates (session/load). A client that shows subagents as child
 * sessions also gets each subagent's own transcript in its child session, under the id it
 * had live (the parent's id and the launching call's), with what it saw live: the
 * announcement, the launch prompt, `running`, the subagent's traffic, its answer and
 * `idle`, again for each later run (`SendMessage`). Without child sessions the replay is
 * the parent's transcript alone, the subagents' calls inline as they were.
 */
export async function replayConversation(host: ReplayHost, conversation: string): Promise<void> {
  const messages = await host.transcripts.messages(conversation, host.cwd);
  if (!host.children) {
    const pace = replayPace();
    for (const message of messages) {
      await host.stream.replay(message);
      await pace();
    }
    return;
  }
  const agents = await host.transcripts.subagents(conversation, host.cwd);
  await new SubagentReplay(host, host.children, messages, agents).run();
}

/**
 * A session's saved conversations as updates (session/load), oldest first (more than one
 * after a plan handoff). Tool calls the transcripts leave without a result are closed, never
 * left pending.
 */
export async function replaySession(
  host: ReplayHost & { turns: TurnQueue },
  conversations: readonly string[],
): Promise<void> {
  for (const conversation of conversations) await replayConversation(host, conversation);
  await host.turns.closeOpenToolCalls(() => UNFINISHED.noResult);
  host.stream.endTurn();
}

/** Messages replayed between two turns of the event loop, after the first. */
const REPLAY_BATCH = 64;

/**
 * Lets the updates replayed so far go out: stdout writes what a turn of the event loop
 * queued (acp/stdout.ts), and a replay queues every message without one otherwise. After
 * the first message, so the client shows the conversation's start at once, then every
 * REPLAY_BATCH.
 */
function replayPace(): () => Promise<void> {
  let replayed = 0;
  return () => (replayed++ % REPLAY_BATCH === 0 ? nextTurn() : Promise.resolve());
}

/** A subagent of the conversation from its saved transcript (a resume, later). */
export async function savedSubagent(
  transcripts: ClaudeTranscripts,
  conversation: string,
  agentId: string,
  dir: string,
): Promise<SavedAgent | undefined> {
  const agent = await transcripts.subagent(conversation, agentId, dir);
  const thread = agent && threadOf(agent);
  return thread ? { thread, ...(agent.worktree ? { worktree: agent.worktree } : {}) } : undefined;
}

/** The launching call every message of a subagent names. */
function threadOf(agent: ClaudeSubagentTranscript): string | undefined {
  return agent.messages.find((m) => m.parent_tool_use_id)?.parent_tool_use_id ?? undefined;
}

/** One transcript being replayed: the parent's (thread null) or a subagent's. */
interface Transcript {
  thread: string | null;
  messages: readonly ReplayedMessage[];
  next: number;
  /** The time of the last message taken: one without a time keeps its place after it. */
  at: number;
}

/**
 * The parent's and the subagents' transcripts, merged in the order their messages were
 * written, so a background subagent's work interleaves with its parent's as it did live.
 * A run of a subagent starts with a prompt in its transcript (the launch, or a message
 * that resumed it) and ends where the parent learnt so: its launching call's result (a
 * foreground run), a task notification (a background or resumed run), or the end of the
 * conversation (a run it never finished, shown as cancelled).
 */
class SubagentReplay {
  private readonly transcripts: Transcript[];
  private readonly byThread = new Map<string, Transcript>();
  /** A subagent's thread by the names SendMessage may use: its agent id, or its name. */
  private readonly named = new Map<string, string>();
  /** Launching calls already replayed: their subagents' messages may follow. */
  private readonly launched = new Set<string>();
  /** What SendMessage told each thread, oldest first: the prompt of its next run. */
  private readonly told = new Map<string, string[]>();
  /** Subagents whose launching call is not in this conversation go last. */
  private flushing = false;

  constructor(
    private readonly host: ReplayHost,
    private readonly children: SessionChildren,
    parent: readonly ReplayedMessage[],
    agents: readonly ClaudeSubagentTranscript[],
  ) {
    this.transcripts = [{ thread: null, messages: parent, next: 0, at: -Infinity }];
    for (const agent of agents) {
      const thread = threadOf(agent);
      if (!thread || this.byThread.has(thread)) continue;
      host.subagents.adopt(agent.agentId, { thread, worktree: agent.worktree });
      this.named.set(agent.agentId, thread);
      const transcript = { thread, messages: agent.messages, next: 0, at: -Infinity };
      this.transcripts.push(transcript);
      this.byThread.set(thread, transcript);
    }
  }

  async run(): Promise<void> {
    const pace = replayPace();
    for (let transcript = this.take(); transcript; transcript = this.take()) {
      transcript.at = headTime(transcript);
      await this.replay(transcript.thread, transcript.messages[transcript.next++]!);
      await pace();
    }
    for (const thread of this.children.working()) {
      if (this.byThread.has(thread))
        await this.children.finished(thread, { stopReason: "cancelled" });
    }
  }

  /** The transcript whose next message was written first (the parent's on a tie). */
  private take(): Transcript | undefined {
    let first: Transcript | undefined;
    for (const transcript of this.transcripts) {
      if (transcript.next >= transcript.messages.length) continue;
      const { thread } = transcript;
      if (thread !== null && !this.flushing && !this.launched.has(thread)) continue;
      if (!first || headTime(transcript) < headTime(first)) first = transcript;
    }
    if (first || this.flushing) return first;
    this.flushing = true;
    return this.take();
  }

  private async replay(thread: string | null, message: ReplayedMessage): Promise<void> {
    if (thread !== null && message.type === "user") {
      const prompt = promptOf(message);
      if (prompt !== undefined && !this.children.working().includes(thread)) {
        const told = this.told.get(thread)?.shift();
        await this.children.started(thread, { prompt: told ?? prompt }, true);
      }
    }
    // Live, a run's end (its task notification) comes before its launching call's result.
    if (message.type === "user") await this.ends(message);
    await this.host.stream.replay(message);
    if (message.type === "assistant") this.calls(message);
  }

  /** Launching calls, and what SendMessage tells a subagent. */
  private calls(message: ReplayedMessage): void {
    for (const block of contentOf(message)) {
      if (block.type !== "tool_use" || typeof block.id !== "string") continue;
      const name = block.name;
      const input = isRecord(block.input) ? block.input : {};
      if (typeof name === "string" && SUBAGENT_TOOLS.has(name)) {
        this.launched.add(block.id);
        const agentName = stringField(input, "name");
        if (agentName && this.byThread.has(block.id)) this.named.set(agentName, block.id);
      } else if (name === SEND_MESSAGE) {
        const to = stringField(input, "to");
        const thread = to === undefined ? undefined : this.named.get(to);
        const text = stringField(input, "message");
        if (thread && text) this.told.set(thread, [...(this.told.get(thread) ?? []), text]);
      }
    }
  }

  /** A launching call's result ends a foreground run; a task notification, any run. */
  private async ends(message: ReplayedMessage): Promise<void> {
    const working = this.children.working();
    for (const block of contentOf(message)) {
      if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const thread = block.tool_use_id;
      if (!working.includes(thread) || this.goesOn(thread)) continue;
      await this.children.finished(thread, resultOutcome(block));
    }
    for (const text of textsOf(message)) {
      const notification = taskNotification(text);
      const thread = notification && this.named.get(notification.taskId);
      if (!notification || !thread || !working.includes(thread)) continue;
      await this.children.finished(thread, outcomeOf(notification.status, notification.text));
    }
  }

  /** A background run goes on after its launching call returns: more of it is to come. */
  private goesOn(thread: string): boolean {
    const transcript = this.byThread.get(thread);
    const next = transcript?.messages[transcript.next];
    return next !== undefined && !(next.type === "user" && promptOf(next) !== undefined);
  }
}

/** When a transcript's next message was written (ms); one without a time: its last one's. */
function headTime(transcript: Transcript): number {
  const message = transcript.messages[transcript.next];
  const stamp = message && "timestamp" in message ? message.timestamp : undefined;
  const time = typeof stamp === "string" ? Date.parse(stamp) : NaN;
  return Number.isNaN(time) ? transcript.at : time;
}

/** The content blocks of a message (a plain string is one text block). */
function contentOf(message: ReplayedMessage): Record<string, unknown>[] {
  const content = isRecord(message.message) ? message.message.content : undefined;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function textsOf(message: ReplayedMessage): string[] {
  return contentOf(message).flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
}

/**
 * The prompt a user message of a subagent's transcript carries (its launch, or a message
 * that resumed it), if it is one: not tool results, Claude Code's notes or notifications.
 */
function promptOf(message: ReplayedMessage): string | undefined {
  const text = textsOf(message)
    .filter((t) => !isClaudeCodeNote(t) && !taskNotification(t))
    .join("\n");
  return text.trim() ? text : undefined;
}

/** Claude Code's notice that a task ended, as it writes it into the transcript. */
function taskNotification(
  text: string,
): { taskId: string; status: string; text: string } | undefined {
  const body = /^\s*<task-notification>([\s\S]*)<\/task-notification>\s*$/.exec(text)?.[1];
  const field = (name: string) =>
    body && new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body)?.[1]?.trim();
  const taskId = field("task-id");
  const status = field("status");
  if (!taskId || !status) return undefined;
  return { taskId, status, text: field("result") || field("summary") || "" };
}
