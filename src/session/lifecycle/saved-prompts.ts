import { rm } from "node:fs/promises";
import { sdkSystemPrompt, type SdkSystemPrompt } from "../../claude/client-options/options.js";
import { log } from "../../logger.js";
import { readCacheFile } from "../../util/cache-file.js";
import { agentStatePath, writeWhole } from "../../util/whole-file.js";

/** A saved prompt of the longest text a client may give, in UTF-8, with room to spare. */
const SAVED_PROMPT_MAX_BYTES = 1024 * 1024;
/** Session ids are UUIDs; only an id of this form names a file. */
const SESSION_ID = /^[A-Za-z0-9-]{1,100}$/;

/**
 * The system prompt a client gave a session, kept beside the agent's other state so that a
 * load or resume without one keeps it (as the RFD allows), and a fork inherits it. Claude
 * Code's transcript does not record it. Files are the user's alone (0600).
 */
export class SavedPrompts {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private file(sessionId: string): string | undefined {
    return SESSION_ID.test(sessionId)
      ? agentStatePath(this.env, `system-prompts/${sessionId}.json`)
      : undefined;
  }

  /** The session's prompt; none when none was saved or the file is not one this agent wrote. */
  async get(sessionId: string): Promise<SdkSystemPrompt | undefined> {
    const file = this.file(sessionId);
    const bytes = file && (await readCacheFile(file, SAVED_PROMPT_MAX_BYTES));
    if (!bytes) return undefined;
    try {
      const parsed = sdkSystemPrompt.safeParse(JSON.parse(bytes.toString("utf8")));
      if (parsed.success) return parsed.data;
    } catch {
      // reported below
    }
    log.warn(`session ${sessionId}: its saved system prompt is unreadable; not used`);
    return undefined;
  }

  /** Saves the session's prompt, or forgets it (none given). A failure is logged, not fatal. */
  async set(sessionId: string, prompt: SdkSystemPrompt | undefined): Promise<void> {
    const file = this.file(sessionId);
    if (!file) return;
    try {
      if (prompt === undefined) await rm(file, { force: true });
      else await writeWhole(file, `${JSON.stringify(prompt)}\n`, { private: true });
    } catch (error) {
      log.warn(`session ${sessionId}: could not save its system prompt`, error);
    }
  }
}
