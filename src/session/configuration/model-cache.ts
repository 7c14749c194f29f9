import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { ModelInfo } from "../../claude/types.js";
import { log } from "../../logger.js";
import { readCacheFile } from "../../util/cache-file.js";
import { agentCachePath, writeWhole } from "../../util/whole-file.js";

/**
 * The models Claude Code reported at its last start, per Claude Code build and config dir,
 * so that session/new can offer them before this session's Claude Code has started (it
 * answers first; the list Claude Code reports then follows as config_option_update).
 */
export interface KnownModels {
  /** The models of the last start (none yet: the defaults). */
  readonly known: readonly ModelInfo[];
  /** What Claude Code reported at this start, for the next session. */
  remember(models: readonly ModelInfo[]): void;
}

/** Entries kept: one per Claude Code build and config dir seen recently. */
const MAX_ENTRIES = 8;

/** Only what the cache needs to trust a file it did not write in this run. */
const cacheFile = z.object({
  version: z.literal(1),
  entries: z.array(
    z.object({
      key: z.string(),
      models: z.array(z.looseObject({ value: z.string(), displayName: z.string() })),
    }),
  ),
});
type CacheFile = z.infer<typeof cacheFile>;

/** `$XDG_CACHE_HOME/claude-agent-acp/models.json`, else under `~/.cache`. */
export function modelCachePath(env: NodeJS.ProcessEnv): string {
  return agentCachePath(env, "models.json");
}

export class ModelCache {
  private entries: CacheFile["entries"] | undefined;
  private reading: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * The models known for this executable (its build: path, size, mtime), config dir and
   * provider (its routing, never its headers: Bedrock's model list is not Anthropic's).
   */
  async lookup(executable: string, provider?: string): Promise<KnownModels> {
    const key = await this.key(executable, provider);
    await (this.reading ??= this.read());
    const models = (this.entries?.find((e) => e.key === key)?.models ?? []) as ModelInfo[];
    return { known: models, remember: (reported) => this.remember(key, reported) };
  }

  private async key(executable: string, provider?: string): Promise<string> {
    const info = await stat(executable).catch(() => undefined);
    const configDir =
      this.env.CLAUDE_CONFIG_DIR?.trim() || join(this.env.HOME || homedir(), ".claude");
    const key = [executable, info?.size, info?.mtimeMs, configDir];
    return JSON.stringify(provider ? [...key, provider] : key);
  }

  private async read(): Promise<void> {
    // None yet, not a small regular file (cache-file.ts), or not a list: the defaults.
    const bytes = await readCacheFile(this.file);
    try {
      const parsed = cacheFile.safeParse(bytes && JSON.parse(bytes.toString("utf8")));
      this.entries = parsed.success ? parsed.data.entries : [];
    } catch {
      this.entries = [];
    }
  }

  private remember(key: string, models: readonly ModelInfo[]): void {
    const entries = (this.entries ?? []).filter((e) => e.key !== key);
    const same = JSON.stringify(this.entries?.find((e) => e.key === key)?.models);
    this.entries = [{ key, models: [...models] }, ...entries].slice(0, MAX_ENTRIES);
    if (same === JSON.stringify(models)) return;
    const text = `${JSON.stringify({ version: 1, entries: this.entries })}\n`;
    // One write at a time, each whole (a temp file renamed over the old one).
    this.writing = this.writing.then(async () => {
      try {
        await writeWhole(this.file, text);
      } catch (error) {
        log.debug("could not save the model list", error);
      }
    });
  }
}
