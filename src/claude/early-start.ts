// Claude Code takes most of a second to start, and the Claude SDK that spawns it takes a
// few hundred milliseconds to load, after session/new has answered. So a session spawns
// its Claude Code itself, while the SDK loads, from what the SDK spawned the last time for
// the same configuration. When the SDK then asks for its process, the one already starting
// is handed over only if the SDK's command, arguments, directory and environment are
// exactly those (child-process.ts); otherwise it is ended and the SDK's own is started.
// A guess costs at most one wasted start, never a process started differently.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Options, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { log } from "../logger.js";
import { writeWhole } from "../util/whole-file.js";

/** A spawn as the agent can repeat it: everything but the SDK's abort signal. */
export type PlannedSpawn = Omit<SpawnOptions, "signal">;

/** Configurations remembered: the most recently used. */
const MAX_PLANS = 8;

/** What stands for the session's own values in a remembered spawn. */
const SESSION = "\u0000session-id\u0000";
const RESUME = "\u0000resume-id\u0000";
const CWD = "\u0000cwd\u0000";
/** Every placeholder holds one: what is left of one after filling in is a stale plan. */
const PLACEHOLDER_MARK = "\u0000";

/**
 * One configuration's spawn, with the session's values as placeholders. Only what the SDK
 * added to or removed from the environment it was given is kept: never the environment
 * itself, which holds the user's secrets.
 */
const plan = z.object({
  key: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string().optional(),
  envSet: z.record(z.string(), z.string()),
  envUnset: z.array(z.string()),
});
type Plan = z.infer<typeof plan>;
const plansFile = z.object({ version: z.literal(1), plans: z.array(plan) });

/** The session's ids a remembered spawn leaves out, by their placeholders. */
function sessionIds(options: Options): [string, string][] {
  const ids: [string, string][] = [];
  if (options.sessionId) ids.push([SESSION, options.sessionId]);
  if (options.resume) ids.push([RESUME, options.resume]);
  return ids;
}

/** Replaces each of the session's ids (UUIDs: long, unique) by its placeholder. */
function generalize(text: string, ids: [string, string][]): string {
  return ids.reduce((out, [placeholder, id]) => out.replaceAll(id, placeholder), text);
}

function specialize(text: string, ids: [string, string][]): string {
  return ids.reduce((out, [placeholder, id]) => out.replaceAll(placeholder, id), text);
}

/**
 * Names a configuration: the SDK options but the environment and the session's values.
 * A callback counts by its presence (it may add an argument); a digest, since options can
 * carry MCP servers' credentials.
 */
export function configurationKey(options: Options): string {
  const { env: _env, sessionId, resume, cwd, ...rest } = options;
  const shape = JSON.stringify(
    { ...rest, sessionId: !!sessionId, resume: !!resume, cwd: !!cwd },
    (_key, value: unknown) => (typeof value === "function" ? "(callback)" : value),
  );
  return createHash("sha256").update(shape).digest("hex");
}

function definedEntries(env: SpawnOptions["env"]): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [name, value] of Object.entries(env))
    if (value !== undefined) entries.set(name, value);
  return entries;
}

/** What makes two spawns start different processes (command, arguments, ...), if anything. */
export function spawnDifference(a: PlannedSpawn, b: PlannedSpawn): string | undefined {
  if (a.command !== b.command) return "command";
  if (a.args.length !== b.args.length || a.args.some((arg, i) => arg !== b.args[i]))
    return "arguments";
  if (a.cwd !== b.cwd) return "directory";
  const envA = definedEntries(a.env);
  const envB = definedEntries(b.env);
  if (envA.size !== envB.size || [...envA].some(([name, value]) => envB.get(name) !== value))
    return "environment";
  return undefined;
}

/** The spawns the SDK asked for, per configuration, kept in a file between runs. */
export class EarlyStarts {
  private plans: Plan[] | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Each start's key, named once for its expectation and for what the SDK then asks. */
  private readonly keys = new WeakMap<Options, string>();

  /** `file`: where the plans are kept (none: this run only). */
  constructor(private readonly file?: string) {}

  /** The spawn the SDK should ask for with these options, if this configuration was seen. */
  expected(options: Options): PlannedSpawn | undefined {
    const key = this.keyOf(options);
    const found = this.load().find((p) => p.key === key);
    if (!found) return undefined;
    const ids = sessionIds(options);
    const env: SpawnOptions["env"] = { ...options.env };
    for (const name of found.envUnset) delete env[name];
    for (const [name, value] of Object.entries(found.envSet)) env[name] = specialize(value, ids);
    const args = found.args.map((arg) => specialize(arg, ids));
    const filled = [...args, ...Object.values(env)];
    if (filled.some((text) => text?.includes(PLACEHOLDER_MARK))) return undefined;
    return { command: found.command, args, cwd: found.cwd === CWD ? options.cwd : found.cwd, env };
  }

  /** What the SDK asked for with these options: the plan of the next start like it. */
  remember(options: Options, spawned: PlannedSpawn): void {
    const ids = sessionIds(options);
    const given = definedEntries(options.env ?? {});
    const asked = definedEntries(spawned.env);
    const envSet: Record<string, string> = {};
    for (const [name, value] of asked) {
      if (given.get(name) !== value) envSet[name] = generalize(value, ids);
    }
    const next: Plan = {
      key: this.keyOf(options),
      command: spawned.command,
      args: spawned.args.map((arg) => generalize(arg, ids)),
      ...(spawned.cwd !== undefined
        ? { cwd: spawned.cwd === options.cwd ? CWD : spawned.cwd }
        : {}),
      envSet,
      envUnset: [...given.keys()].filter((name) => !asked.has(name)),
    };
    const plans = this.load();
    const same = plans.find((p) => p.key === next.key);
    this.plans = [next, ...plans.filter((p) => p !== same)].slice(0, MAX_PLANS);
    if (same && JSON.stringify(same) === JSON.stringify(next)) return;
    this.save();
  }

  private keyOf(options: Options): string {
    let key = this.keys.get(options);
    if (key === undefined) {
      key = configurationKey(options);
      this.keys.set(options, key);
    }
    return key;
  }

  private load(): Plan[] {
    if (this.plans) return this.plans;
    this.plans = [];
    if (!this.file) return this.plans;
    try {
      // Read once, synchronously: the expectation is needed before the SDK's load blocks.
      const parsed = plansFile.safeParse(JSON.parse(readFileSync(this.file, "utf8")));
      if (parsed.success) this.plans = parsed.data.plans;
    } catch {
      // None yet, or unreadable: the SDK starts each process.
    }
    return this.plans;
  }

  private save(): void {
    const file = this.file;
    if (!file) return;
    const text = `${JSON.stringify({ version: 1, plans: this.plans })}\n`;
    this.writing = this.writing.then(async () => {
      try {
        await writeWhole(file, text);
      } catch (error) {
        log.debug("could not save how Claude Code was started", error);
      }
    });
  }
}
