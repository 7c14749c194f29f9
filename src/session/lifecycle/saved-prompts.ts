import { rm } from "node:fs/promises";
import { sdkSystemPrompt, type SdkSystemPrompt } from "../../claude/client-options/options.js";
import { InvalidParamsError } from "../../errors.js";
import { log } from "../../logger.js";
import { readCacheFile } from "../../util/cache-file.js";
import { agentStatePath, writeWhole } from "../../util/whole-file.js";

/**
 * The most of a saved prompt a load reads: the longest text a client may give (200,000
 * characters) in UTF-8 with room to spare; a prompt whose saved form is larger is refused
 * up front (requireSavable).
 */
const SAVED_PROMPT_MAX_BYTES = 1024 * 1024;
/** Session ids are UUIDs; only an id of this form names a file. */
const SESSION_ID = /^[A-Za-z0-9-]{1,100}$/;

/** A prompt's file, as it is saved. */
const savedText = (prompt: SdkSystemPrompt) => `${JSON.stringify(prompt)}\n`;

/** The prompt a saved file holds; none when it holds none this agent takes. */
function readBack(text: string): SdkSystemPrompt | undefined {
  try {
    const parsed = sdkSystemPrompt.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses (-32602) a system prompt that a later load could not read back: its saved form is
 * larger than SAVED_PROMPT_MAX_BYTES (JSON writes a control character or a lone surrogate in
 * six bytes), or is not one the reading takes (an empty override). Checked before the session
 * opens rather than when it is saved: the save comes once the session is open, too late to say
 * no, and the load would then go on without the prompt, silently. So a prompt accepted is one
 * a load gets back.
 */
export function requireSavable(prompt: SdkSystemPrompt): void {
  const text = savedText(prompt);
  const bytes = Buffer.byteLength(text);
  if (bytes > SAVED_PROMPT_MAX_BYTES) {
    throw new InvalidParamsError(
      `systemPrompt is too large to keep for a later load: ${bytes} bytes saved as JSON, more than ${SAVED_PROMPT_MAX_BYTES}.`,
      { bytes, maxBytes: SAVED_PROMPT_MAX_BYTES },
    );
  }
  if (readBack(text) === undefined) {
    throw new InvalidParamsError("systemPrompt has no text to keep for a later load.");
  }
}

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
    const prompt = readBack(bytes.toString("utf8"));
    if (prompt !== undefined) return prompt;
    log.warn(`session ${sessionId}: its saved system prompt is unreadable; not used`);
    return undefined;
  }

  /** Saves the session's prompt, or forgets it (none given). A failure is logged, not fatal. */
  async set(sessionId: string, prompt: SdkSystemPrompt | undefined): Promise<void> {
    const file = this.file(sessionId);
    if (!file) return;
    try {
      if (prompt === undefined) await rm(file, { force: true });
      else await writeWhole(file, savedText(prompt), { private: true });
    } catch (error) {
      log.warn(`session ${sessionId}: could not save its system prompt`, error);
    }
  }
}
