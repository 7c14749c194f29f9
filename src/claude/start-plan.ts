// How a remembered Claude Code start is written down and filled in again: the spawn the
// SDK asked for, with the session's values as placeholders. Shared by the early start of a
// session (early-start.ts) and the start at the agent's launch (launch-start.ts), which
// runs before the agent's bundle loads: nothing here may import what is slow to load (zod,
// the SDKs).
import type { SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { readCacheFileSync } from "../util/cache-file.js";
import { agentCachePath } from "../util/whole-file.js";

/** A spawn as the agent can repeat it: everything but the SDK's abort signal. */
export type PlannedSpawn = Omit<SpawnOptions, "signal">;

/**
 * One configuration's spawn, with the session's values as placeholders. Only what the SDK
 * added to or removed from the environment it was given is kept: never the environment
 * itself, which holds the user's secrets.
 */
export interface StoredPlan {
  key: string;
  command: string;
  args: string[];
  cwd?: string | undefined;
  envSet: Record<string, string>;
  envUnset: string[];
}

/** The configuration and directory of the last new session: what a launch starts. */
export interface LaunchPointer {
  key: string;
  cwd: string;
}

/** What the starts file holds. */
export interface Starts {
  plans: StoredPlan[];
  launch?: LaunchPointer | undefined;
}

const STARTS_VERSION = 1;

/** What stands for the session's own values in a remembered spawn. */
export const SESSION = "\u0000session-id\u0000";
export const RESUME = "\u0000resume-id\u0000";
export const CWD = "\u0000cwd\u0000";
/** Every placeholder holds one: what is left of one after filling in is a stale plan. */
const PLACEHOLDER_MARK = "\u0000";

/** The session's own values a plan is filled in with. */
export interface SessionValues {
  sessionId?: string | undefined;
  resume?: string | undefined;
  cwd?: string | undefined;
  /** The environment the SDK is given. */
  env?: SpawnOptions["env"] | undefined;
}

/** The remembered starts, in the agent's cache. */
export function startsFile(env: NodeJS.ProcessEnv): string {
  return agentCachePath(env, "starts.json");
}

const isString = (value: unknown): value is string => typeof value === "string";
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every(isString);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Checked by hand, not with zod: the launch reads this before the agent's bundle loads. */
function isStoredPlan(value: unknown): value is StoredPlan {
  return (
    isRecord(value) &&
    isString(value.key) &&
    isString(value.command) &&
    isStrings(value.args) &&
    (value.cwd === undefined || isString(value.cwd)) &&
    isRecord(value.envSet) &&
    Object.values(value.envSet).every(isString) &&
    isStrings(value.envUnset)
  );
}

function isLaunchPointer(value: unknown): value is LaunchPointer {
  return isRecord(value) && isString(value.key) && isString(value.cwd);
}

/**
 * The remembered starts; none if the file is missing, not a small regular file (cache-file.ts),
 * unreadable or not of this version.
 */
export function readStarts(file: string): Starts {
  const bytes = readCacheFileSync(file);
  if (!bytes) return { plans: [] };
  try {
    const parsed: unknown = JSON.parse(bytes.toString("utf8"));
    if (!isRecord(parsed) || parsed.version !== STARTS_VERSION || !Array.isArray(parsed.plans))
      return { plans: [] };
    return {
      plans: parsed.plans.filter(isStoredPlan),
      ...(isLaunchPointer(parsed.launch) ? { launch: parsed.launch } : {}),
    };
  } catch {
    return { plans: [] };
  }
}

/** The text of the starts file. */
export function startsText(starts: Starts): string {
  return `${JSON.stringify({ version: STARTS_VERSION, ...starts })}\n`;
}

/** Claude Code is started ahead of the SDK unless CLAUDE_AGENT_ACP_EARLY_START=0. */
export function earlyStartsEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.CLAUDE_AGENT_ACP_EARLY_START !== "0";
}

/**
 * CLAUDE_AGENT_ACP_PREWARM=1 keeps a prewarmed spare for the next session/new (off by
 * default: one more process held). Sessions then start from spares, not from plans.
 */
export function spareWanted(env: NodeJS.ProcessEnv): boolean {
  return env.CLAUDE_AGENT_ACP_PREWARM === "1";
}

/** The session's ids a remembered spawn leaves out, by their placeholders. */
export function sessionIds(values: SessionValues): [string, string][] {
  const ids: [string, string][] = [];
  if (values.sessionId) ids.push([SESSION, values.sessionId]);
  if (values.resume) ids.push([RESUME, values.resume]);
  return ids;
}

/** Replaces each of the session's ids (UUIDs: long, unique) by its placeholder. */
export function generalize(text: string, ids: [string, string][]): string {
  return ids.reduce((out, [placeholder, id]) => out.replaceAll(id, placeholder), text);
}

function specialize(text: string, ids: [string, string][]): string {
  return ids.reduce((out, [placeholder, id]) => out.replaceAll(placeholder, id), text);
}

/** The spawn a plan stands for with these values; undefined if one of them is missing. */
export function fillPlan(plan: StoredPlan, values: SessionValues): PlannedSpawn | undefined {
  const ids = sessionIds(values);
  const env: SpawnOptions["env"] = { ...values.env };
  for (const name of plan.envUnset) delete env[name];
  for (const [name, value] of Object.entries(plan.envSet)) env[name] = specialize(value, ids);
  const args = plan.args.map((arg) => specialize(arg, ids));
  const filled = [...args, ...Object.values(env)];
  if (filled.some((text) => text?.includes(PLACEHOLDER_MARK))) return undefined;
  return { command: plan.command, args, cwd: plan.cwd === CWD ? values.cwd : plan.cwd, env };
}

export function definedEntries(env: SpawnOptions["env"]): Map<string, string> {
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
