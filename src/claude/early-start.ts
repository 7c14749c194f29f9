// Claude Code takes most of a second to start, and the Claude SDK that spawns it takes a
// few hundred milliseconds to load, after session/new has answered. So a session spawns
// its Claude Code itself, while the SDK loads, from what the SDK spawned the last time for
// the same configuration. When the SDK then asks for its process, the one already starting
// is handed over only if the SDK's command, arguments, directory and environment are
// exactly those (child-process.ts); otherwise it is ended and the SDK's own is started.
// A guess costs at most one wasted start, never a process started differently.
import { createHash } from "node:crypto";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { writeWhole } from "../util/whole-file.js";
import type { LaunchStart } from "./launch-start.js";
import {
  CWD,
  definedEntries,
  fillPlan,
  generalize,
  type LaunchPointer,
  type PlannedSpawn,
  readStarts,
  sessionIds,
  type StoredPlan,
  startsText,
} from "./start-plan.js";

export { type PlannedSpawn, spawnDifference } from "./start-plan.js";

/** Configurations remembered: the most recently used. */
const MAX_PLANS = 8;

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

/** Whether the options pin a provider's routing in the flag settings (sdk-query.ts). */
function clientRouted(options: Options): boolean {
  const settings = options.settings;
  return typeof settings === "object" && settings !== null && settings.env !== undefined;
}

/** The spawns the SDK asked for, per configuration, kept in a file between runs. */
export class EarlyStarts {
  private plans: StoredPlan[] | undefined;
  private launch: LaunchPointer | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Each start's key, named once for its expectation and for what the SDK then asks. */
  private readonly keys = new WeakMap<Options, string>();

  /**
   * `file`: where the plans are kept (none: this run only). `launched`: the process the
   * agent started at its launch for the first new session, if it did (launch-start.ts).
   */
  constructor(
    private readonly file?: string,
    private readonly launched?: LaunchStart,
  ) {}

  /** The spawn the SDK should ask for with these options, if this configuration was seen. */
  expected(options: Options): PlannedSpawn | undefined {
    const key = this.keyOf(options);
    const found = this.load().find((p) => p.key === key);
    return found ? fillPlan(found, options) : undefined;
  }

  /**
   * The process started at launch, if it is exactly the one `expected`; otherwise (or if
   * there is none) it is ended. Only the first session to start can have it.
   */
  fromLaunch(expected: PlannedSpawn | undefined): ReturnType<LaunchStart["take"]> {
    return this.launched?.take(expected);
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
    const next: StoredPlan = {
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
    // A new conversation is what the next launch starts ahead of session/new, in the same
    // directory (a resumed one names a conversation that the next launch cannot guess, and
    // one for a provider the client set, a provider the next launch does not know yet).
    const launch =
      options.sessionId && !options.resume && options.cwd && !clientRouted(options)
        ? { key: next.key, cwd: options.cwd }
        : this.launch;
    const launchSame = JSON.stringify(launch) === JSON.stringify(this.launch);
    this.launch = launch;
    if (same && JSON.stringify(same) === JSON.stringify(next) && launchSame) return;
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

  private load(): StoredPlan[] {
    if (this.plans) return this.plans;
    // Read once, synchronously: the expectation is needed before the SDK's load blocks.
    // None yet, or unreadable: the SDK starts each process.
    const starts = this.file ? readStarts(this.file) : { plans: [] };
    this.plans = starts.plans;
    this.launch = starts.launch;
    return this.plans;
  }

  private save(): void {
    const file = this.file;
    if (!file) return;
    const text = startsText({ plans: this.plans ?? [], launch: this.launch });
    this.writing = this.writing.then(async () => {
      try {
        await writeWhole(file, text);
      } catch (error) {
        log.debug("could not save how Claude Code was started", error);
      }
    });
  }
}
