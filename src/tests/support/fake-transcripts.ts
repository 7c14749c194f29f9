import type {
  ClaudeSessionInfo,
  ClaudeSubagentTranscript,
  ClaudeTranscriptMessage,
  ClaudeSessionRow,
  ClaudeTranscripts,
  SavedSession,
} from "../../claude/transcripts.js";
import { newestFirst } from "../../claude/session-index.js";

/** Claude Code's project folder name of a directory: each character but a letter or digit a dash. */
const projectFolder = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, "-");

/** In-memory saved conversations, for in-process tests. */
export class FakeTranscripts implements ClaudeTranscripts {
  readonly sessions = new Map<
    string,
    { info: ClaudeSessionInfo; messages: ClaudeTranscriptMessage[] }
  >();
  forks = 0;
  /** Each conversation's subagents, by conversation id. */
  readonly agents = new Map<string, ClaudeSubagentTranscript[]>();

  /** The open watches: each hears of a change to a conversation of its directories. */
  private readonly watches = new Set<{
    dirs: readonly string[];
    changed: (ids: readonly string[]) => void;
  }>();

  add(
    info: Partial<ClaudeSessionInfo> & { sessionId: string },
    messages: ClaudeTranscriptMessage[] = [],
  ): void {
    this.sessions.set(info.sessionId, {
      info: { summary: "", lastModified: Date.now(), ...info },
      messages,
    });
    this.changed(info.sessionId, info.cwd);
  }

  /** As a watch of the conversation's directory sees a write to its transcript. */
  changed(sessionId: string, cwd = this.sessions.get(sessionId)?.info.cwd): void {
    for (const watch of this.watches) {
      if (cwd !== undefined && watch.dirs.includes(cwd)) watch.changed([sessionId]);
    }
  }

  find(sessionIds: readonly string[], dirs?: readonly string[]): Promise<SavedSession[]> {
    return Promise.resolve(
      sessionIds.flatMap((id) => {
        const info = this.sessions.get(id)?.info;
        if (!info || (dirs && !(info.cwd !== undefined && dirs.includes(info.cwd)))) return [];
        const { lastModified, archived } = info;
        return [{ sessionId: id, lastModified, path: id, archived: archived === true }];
      }),
    );
  }

  watch(dirs: readonly string[], changed: (ids: readonly string[]) => void) {
    const watch = { dirs, changed };
    this.watches.add(watch);
    return { close: () => void this.watches.delete(watch) };
  }

  /** How many watches are open. */
  get watching(): number {
    return this.watches.size;
  }

  /** A listing of directories: the sessions recorded in exactly one of them. */
  saved(dirs?: readonly string[]): Promise<SavedSession[]> {
    const all = [...this.sessions.values()]
      .map((s) => s.info)
      .filter((info) => !dirs || (info.cwd !== undefined && dirs.includes(info.cwd)))
      .sort(newestFirst);
    return Promise.resolve(
      all.map(({ sessionId, lastModified, archived }) => ({
        sessionId,
        lastModified,
        path: sessionId,
        archived: archived === true,
      })),
    );
  }

  rows(sessions: readonly SavedSession[]): Promise<(ClaudeSessionRow | undefined)[]> {
    return Promise.resolve(sessions.map((s) => this.sessions.get(s.sessionId)?.info));
  }

  /** As Claude Code looks one up: in the project folder of `dir`, which /p-a-b and /p/a/b share. */
  info(sessionId: string, dir?: string): Promise<ClaudeSessionInfo | undefined> {
    const info = this.sessions.get(sessionId)?.info;
    const found = info && (!dir || (info.cwd && projectFolder(info.cwd) === projectFolder(dir)));
    return Promise.resolve(found ? info : undefined);
  }

  messages(sessionId: string): Promise<ClaudeTranscriptMessage[]> {
    return Promise.resolve(this.sessions.get(sessionId)?.messages ?? []);
  }

  fork(sessionId: string): Promise<string> {
    const source = this.sessions.get(sessionId);
    if (!source) return Promise.reject(new Error(`not found: ${sessionId}`));
    const forkId = `00000000-0000-4000-9000-${String(++this.forks).padStart(12, "0")}`;
    this.add({ ...source.info, sessionId: forkId }, [...source.messages]);
    return Promise.resolve(forkId);
  }

  addSubagent(sessionId: string, agent: ClaudeSubagentTranscript): void {
    this.agents.set(sessionId, [...(this.agents.get(sessionId) ?? []), agent]);
  }

  subagents(sessionId: string): Promise<ClaudeSubagentTranscript[]> {
    return Promise.resolve(this.agents.get(sessionId) ?? []);
  }

  subagent(sessionId: string, agentId: string): Promise<ClaudeSubagentTranscript | undefined> {
    return Promise.resolve(this.agents.get(sessionId)?.find((a) => a.agentId === agentId));
  }

  rename(sessionId: string, title: string): Promise<void> {
    const saved = this.sessions.get(sessionId);
    if (!saved) return Promise.reject(new Error(`not found: ${sessionId}`));
    saved.info = { ...saved.info, customTitle: title, lastModified: Date.now() };
    this.changed(sessionId);
    return Promise.resolve();
  }

  archive(sessionId: string, archived: boolean): Promise<void> {
    const saved = this.sessions.get(sessionId);
    if (!saved) return Promise.reject(new Error(`not found: ${sessionId}`));
    saved.info = { ...saved.info, archived };
    this.changed(sessionId);
    return Promise.resolve();
  }

  delete(sessionId: string): Promise<void> {
    const cwd = this.sessions.get(sessionId)?.info.cwd;
    if (!this.sessions.delete(sessionId))
      return Promise.reject(new Error(`not found: ${sessionId}`));
    this.changed(sessionId, cwd);
    return Promise.resolve();
  }
}

export function fakeTranscripts(): FakeTranscripts {
  return new FakeTranscripts();
}

/** One message of a saved main conversation, as Claude Code's transcript holds it. */
export function savedMessage(
  sessionId: string,
  type: "user" | "assistant",
  message: unknown,
): ClaudeTranscriptMessage {
  return {
    type,
    uuid: `u-${Math.random()}`,
    session_id: sessionId,
    message,
    parent_tool_use_id: null,
    parent_agent_id: null,
  };
}
