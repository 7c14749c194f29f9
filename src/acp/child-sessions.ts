import { randomUUID } from "node:crypto";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type {
  SessionUpdate as AnyUnstableSessionUpdate,
  StateUpdate,
} from "@agentclientprotocol/sdk/unstable";
import { cleanMultiline, cleanSingleLine } from "../util/text.js";
import type { AirTaskUpdate } from "./air/async-tasks.js";
import {
  generationId,
  subagentEnded,
  subagentSpawned,
  type AirSubagentUpdate,
} from "./air/subagents.js";

/**
 * A `session/update` of ACP's unstable schema (`subagent_update`, `session_message`...), or of
 * JetBrains AIR's drafts of child sessions and background tasks (air/, for AIR alone).
 */
export type UnstableSessionUpdate = AnyUnstableSessionUpdate | AirSubagentUpdate | AirTaskUpdate;

/**
 * What child sessions need of a session's client (session-client.ts): its id, the unstable
 * updates it sends, and closing. Named here so that this module does not import the client.
 */
export interface ChildClient {
  readonly sessionId: string;
  sendUnstable(sessionId: string, update: UnstableSessionUpdate): Promise<void>;
  /** Its updates go to another session id from now on (AIR's next generation of a child). */
  rebind(sessionId: string): void;
  close(): void;
}

/** Makes a child session's client, which reaches its parent through `route`. */
export type ChildClientFactory<C extends ChildClient> = (sessionId: string, route: ChildRoute) => C;

/** How a child session's client reaches its parent (see `SessionClient.route`). */
export interface ChildRoute {
  /** Settles once the parent has announced the child: nothing names it before. */
  ready(): Promise<void>;
  /** An update is about to go to the child (its last message is its answer). */
  sent(update: SessionUpdate): void;
  /** The child needs the user while `ask` runs (a permission request, a question). */
  whileAsking<T>(ask: () => Promise<T>): Promise<T>;
}

/** What the parent tells the client about a child; fields left out are unknown. */
export interface ChildInfo {
  title?: string;
  description?: string;
  /** Absolute; only when it differs from the parent's. */
  cwd?: string;
  /** What the child was asked: the message from the parent that starts its work. */
  prompt?: string;
  /** The thread that launched this one, when a child launched it (its immediate parent). */
  parentThread?: string;
}

/** How a child's work ended. */
export type ChildOutcome =
  | { stopReason: "end_turn" | "cancelled"; answer?: string }
  | { stopReason: "error"; message: string };

type WorkState = "running" | "requires_action" | "idle";

/**
 * A client's view of the subagents of one session, for clients that declare
 * `clientCapabilities.subagents`: each subagent (named by a neutral thread key) is a child
 * session of its own. The parent announces a child (`subagent_update`) before anything
 * names it, reports its work state (running, requires_action while one of its requests
 * waits for the user, idle with a stop reason), and the messages between the two (the
 * launch prompt, the child's answer) appear in both sessions, each view naming the other.
 */
export class ChildSessions<C extends ChildClient> {
  private readonly children = new Map<string, Child<C>>();
  private closed = false;
  /** What the parent knows of a thread before the child is announced (its launching call). */
  describe: (thread: string) => ChildInfo | undefined = () => undefined;

  constructor(
    private readonly parent: C,
    private readonly newClient: ChildClientFactory<C>,
    /** How the parent speaks of its children: ACP's unstable schema, or AIR's draft. */
    private readonly form: "acp" | "air" = "acp",
  ) {}

  /** The child's client; its first send announces the child. */
  client(thread: string): C | undefined {
    if (this.closed) return undefined;
    return this.child(thread).client;
  }

  /** Whether the thread has a child session. */
  has(thread: string): boolean {
    return this.children.has(thread);
  }

  /** The thread of a child session id, if it is one of this session's children. */
  threadOf(sessionId: string): string | undefined {
    for (const [thread, child] of this.children) if (child.sessionId === sessionId) return thread;
    return undefined;
  }

  /**
   * A child's work starts (again): announced if it was not, otherwise the new launch prompt
   * and `running`. `cancellable`: `session/cancel` on the child stops its work.
   */
  async started(thread: string, info: ChildInfo, cancellable: boolean): Promise<void> {
    const child = this.child(thread);
    const known = child.announced;
    child.learn(info, cancellable);
    if (!known) return child.ready();
    await child.restart(info.prompt, cancellable);
  }

  /** A child's work ended: its answer goes to the parent, then it is idle. */
  async finished(thread: string, outcome: ChildOutcome): Promise<void> {
    const child = this.children.get(thread);
    if (!child || child.state === "idle") return;
    await child.finish(outcome);
  }

  /** A child works in a directory of its own (a worktree): the client hears it first. */
  async located(thread: string, cwd: string): Promise<void> {
    await this.children.get(thread)?.locate(cwd);
  }

  /** Children still working, by thread (the parent's turn ending settles foreground ones). */
  working(): string[] {
    return [...this.children].filter(([, c]) => c.state && c.state !== "idle").map(([t]) => t);
  }

  close(): void {
    this.closed = true;
    for (const child of this.children.values()) child.client.close();
  }

  private child(thread: string): Child<C> {
    let child = this.children.get(thread);
    if (!child) {
      // A subagent launched by a subagent is announced on its immediate parent.
      const parentThread = this.describe(thread)?.parentThread;
      const parent = parentThread ? this.child(parentThread).client : this.parent;
      child = new Child(`${this.parent.sessionId}/${thread}`, parent, {
        newClient: this.newClient,
        describe: () => this.describe(thread),
        air: this.form === "air",
      });
      this.children.set(thread, child);
    }
    return child;
  }
}

/** One child session: its announcement, work state and last message. */
class Child<C extends ChildClient> implements ChildRoute {
  readonly client: C;
  state: WorkState | undefined;
  /** AIR's draft: announced and ended, each generation under an id of its own. */
  private readonly air: boolean;
  private generation = 1;
  private readonly baseId: string;
  private info: ChildInfo = {};
  private cancellable = false;
  private announcement: Promise<void> | undefined;
  private asks = 0;
  /** Parent-side sends in order: a state never overtakes the one before it. */
  private queue: Promise<void> = Promise.resolve();
  private lastMessage: { id: string | undefined; text: string } | undefined;

  constructor(
    public sessionId: string,
    private readonly parent: ChildClient,
    deps: {
      newClient: ChildClientFactory<C>;
      describe: () => ChildInfo | undefined;
      air: boolean;
    },
  ) {
    this.baseId = sessionId;
    this.air = deps.air;
    this.client = deps.newClient(sessionId, this);
    this.describe = deps.describe;
  }

  private readonly describe: () => ChildInfo | undefined;

  get announced(): boolean {
    return this.announcement !== undefined;
  }

  learn(info: ChildInfo, cancellable: boolean): void {
    this.info = { ...this.info, ...defined(info) };
    this.cancellable ||= cancellable;
  }

  ready(): Promise<void> {
    this.announcement ??= this.announce();
    return this.announcement;
  }

  /** Work again after idle (or a capability learnt late): the new prompt, then running. */
  async restart(prompt: string | undefined, cancellable: boolean): Promise<void> {
    await this.ready();
    if (this.air) return this.nextGeneration(prompt);
    const wasCancellable = this.cancellable;
    this.cancellable ||= cancellable;
    if (this.cancellable && !wasCancellable) {
      await this.toParent({ capabilities: { cancel: {} } });
    }
    if (this.state !== "idle") return;
    this.lastMessage = undefined;
    if (prompt) await this.message("fromParent", prompt);
    await this.setState("running");
  }

  async finish(outcome: ChildOutcome): Promise<void> {
    await this.ready();
    if (this.air) {
      this.state = "idle";
      return this.toParentAs(subagentEnded(this.sessionId, outcome.stopReason));
    }
    const answer =
      outcome.stopReason === "error" ? undefined : (this.lastMessage?.text ?? outcome.answer);
    if (answer?.trim()) await this.message("toParent", answer);
    const state: StateUpdate =
      outcome.stopReason === "error"
        ? {
            state: "idle",
            stopReason: "error",
            error: { code: -32603, message: cleanMultiline(outcome.message) || "Error" },
          }
        : { state: "idle", stopReason: outcome.stopReason };
    await this.setState("idle", state);
  }

  /** Its directory, in the announcement when it is not out yet, else in an update of its own. */
  async locate(cwd: string): Promise<void> {
    if (this.info.cwd === cwd) return;
    this.info = { ...this.info, cwd };
    if (this.announced && !this.air) await this.toParent({ cwd });
  }

  sent(update: SessionUpdate): void {
    if (update.sessionUpdate !== "agent_message_chunk" || update.content.type !== "text") return;
    const id = update.messageId ?? undefined;
    if (!this.lastMessage || this.lastMessage.id !== id) this.lastMessage = { id, text: "" };
    this.lastMessage.text += update.content.text;
  }

  async whileAsking<T>(ask: () => Promise<T>): Promise<T> {
    await this.ready();
    if (this.air) return ask();
    if (this.asks++ === 0 && this.state === "running") await this.setState("requires_action");
    try {
      return await ask();
    } finally {
      if (--this.asks === 0 && this.state === "requires_action") await this.setState("running");
    }
  }

  /** The announcement, then the launch prompt in both sessions, then `running`. */
  private async announce(): Promise<void> {
    const info = { ...defined(this.describe() ?? {}), ...this.info };
    this.info = info;
    if (this.air) {
      this.state = "running";
      return this.toParentAs(subagentSpawned(this.sessionId, info));
    }
    const title = info.title ? cleanSingleLine(info.title) : "";
    const description = info.description ? cleanSingleLine(info.description) : "";
    await this.toParent({
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(info.cwd ? { cwd: info.cwd } : {}),
      ...(this.cancellable ? { capabilities: { cancel: {} } } : {}),
    });
    if (info.prompt) await this.message("fromParent", info.prompt);
    await this.setState("running");
  }

  private setState(state: WorkState, snapshot: StateUpdate = { state }): Promise<void> {
    this.state = state;
    return this.toParent({ state: snapshot });
  }

  /** AIR's draft: work after the end is a new generation, announced anew under its own id. */
  private async nextGeneration(prompt: string | undefined): Promise<void> {
    if (this.state !== "idle") return;
    this.sessionId = generationId(this.baseId, ++this.generation);
    this.client.rebind(this.sessionId);
    this.info = { ...this.info, prompt };
    this.state = "running";
    await this.toParentAs(subagentSpawned(this.sessionId, this.info));
  }

  /** A `subagent_update` on the parent, after the ones before it. */
  private toParent(fields: Record<string, unknown>): Promise<void> {
    return this.toParentAs({
      sessionUpdate: "subagent_update",
      sessionId: this.sessionId,
      ...fields,
    });
  }

  /** An update on the parent, after the ones before it. */
  private toParentAs(update: UnstableSessionUpdate): Promise<void> {
    const send = this.queue.then(() => this.parent.sendUnstable(this.parent.sessionId, update));
    this.queue = send.catch(() => undefined);
    return send;
  }

  /** One message between parent and child: the sender's view, then the recipient's. */
  private async message(direction: "fromParent" | "toParent", text: string): Promise<void> {
    const shown = cleanMultiline(text);
    if (!shown) return;
    const [sender, recipient] =
      direction === "fromParent"
        ? [this.parent.sessionId, this.sessionId]
        : [this.sessionId, this.parent.sessionId];
    const outgoing = randomUUID();
    const incoming = randomUUID();
    const common = {
      sessionUpdate: "session_message" as const,
      senderSessionId: sender,
      recipientSessionId: recipient,
      content: [{ type: "text" as const, text: shown }],
    };
    await this.parent.sendUnstable(sender, {
      ...common,
      messageId: outgoing,
      recipientMessageId: incoming,
    });
    await this.parent.sendUnstable(recipient, {
      ...common,
      messageId: incoming,
      senderMessageId: outgoing,
    });
  }
}

/** The fields that are set. */
function defined(info: ChildInfo): ChildInfo {
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined));
}
