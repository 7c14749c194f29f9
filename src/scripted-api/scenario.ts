// Scenario schema (zod) for JSON files, and the loader.
// Objects are strict so a typo such as "stop_reason" fails loudly instead of being ignored.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { Scenario, ScenarioJson, ScriptTurn, TurnSpec } from "./types.js";

const chunkCount = z.number().int().min(1);
const repeat = z.number().int().min(1).optional();

const textBlock = z
  .strictObject({
    type: z.literal("text"),
    text: z.string().optional(),
    chunks: z.union([chunkCount, z.array(z.string()).min(1)]).optional(),
  })
  .refine((b) => b.text !== undefined || Array.isArray(b.chunks), {
    message: "a text block needs `text` or an array of `chunks`",
  })
  .refine((b) => !Array.isArray(b.chunks) || b.text === undefined || b.chunks.join("") === b.text, {
    message: "the `chunks` of a text block must join to its `text`",
  });

const thinkingBlock = z
  .strictObject({
    type: z.literal("thinking"),
    thinking: z.string(),
    signature: z.string().min(1).optional(),
    chunks: z.union([chunkCount, z.array(z.string()).min(1)]).optional(),
  })
  .refine((b) => !Array.isArray(b.chunks) || b.chunks.join("") === b.thinking, {
    message: "the `chunks` of a thinking block must join to its `thinking`",
  });

const toolUseBlock = z.strictObject({
  type: z.literal("tool_use"),
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  chunks: chunkCount.optional(),
});

const block = z.discriminatedUnion("type", [textBlock, thinkingBlock, toolUseBlock]);

const stopReason = z.enum([
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
]);

const tokens = z.number().int().min(0).optional();
const usage = z.strictObject({
  input_tokens: tokens,
  output_tokens: tokens,
  cache_creation_input_tokens: tokens,
  cache_read_input_tokens: tokens,
});

const afterEvents = z.number().int().min(0).optional();
const streamFault = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("cut"), afterEvents, repeat }),
  z.strictObject({
    type: z.literal("stream-error"),
    errorType: z.string().optional(),
    message: z.string().optional(),
    afterEvents,
    repeat,
  }),
]);

const rateLimitStatus = z.enum(["allowed", "allowed_warning", "rejected"]);
const rateLimit = z.strictObject({
  status: rateLimitStatus,
  window: z.enum(["five_hour", "seven_day", "seven_day_overage_included", "overage"]),
  utilization: z.number().min(0).max(1).optional(),
  resetsAt: z.number().int().min(0).optional(),
  surpassedThreshold: z.number().min(0).max(1).optional(),
  overageStatus: rateLimitStatus.optional(),
});
const replyHeaders = {
  rateLimit: rateLimit.optional(),
  headers: z.record(z.string(), z.string()).optional(),
};

const turn = z.strictObject({
  content: z.array(block).min(1),
  stopReason: stopReason.optional(),
  stopSequence: z.string().optional(),
  usage: usage.optional(),
  delayMs: z.number().min(0).optional(),
  firstByteDelayMs: z.number().min(0).optional(),
  fault: streamFault.optional(),
  ...replyHeaders,
});

const httpFaultTurn = z.strictObject({
  fault: z.strictObject({
    type: z.literal("http"),
    status: z.number().int().min(400).max(599),
    message: z.string().optional(),
    errorType: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    retryAfterSeconds: z.number().min(0).optional(),
    repeat,
    ...replyHeaders,
  }),
});

// Assignability to the hand-written types keeps the two in step.
export const scriptTurnSchema: z.ZodType<ScriptTurn> = z.union([turn, httpFaultTurn]);

export const scenarioJsonSchema: z.ZodType<ScenarioJson> = z.strictObject({
  name: z.string().optional(),
  turns: z.array(scriptTurnSchema),
  fallbackText: z.string().optional(),
});

interface Problem {
  path: PropertyKey[];
  message: string;
}

// zod reports a failed union as one opaque "Invalid input"; report the branch that came
// closest instead (fewest problems, then the deepest), so the user sees the real mistake.
function problems(issues: readonly z.core.$ZodIssue[], base: PropertyKey[] = []): Problem[] {
  const out: Problem[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const depth = (ps: Problem[]) => Math.max(...ps.map((p) => p.path.length));
      const branches = issue.errors.map((b) => problems(b, path));
      branches.sort((a, b) => a.length - b.length || depth(b) - depth(a));
      out.push(...(branches[0] ?? []));
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}

/** One indented "path: message" line per problem. */
export function formatZodError(error: z.ZodError): string {
  return problems(error.issues)
    .map((p) => `  ${p.path.map(String).join(".") || "(root)"}: ${p.message}`)
    .join("\n");
}

/** Validate a parsed JSON scenario (object with `turns`, or a bare array of turns). Throws listing each problem. */
export function parseScenario(json: unknown): Scenario {
  const result = scenarioJsonSchema.safeParse(Array.isArray(json) ? { turns: json } : json);
  if (!result.success) throw new Error(`invalid scenario:\n${formatZodError(result.error)}`);
  return { ...result.data, turns: [...result.data.turns] };
}

/** Read, parse and validate a JSON scenario file. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`scenario ${path} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return parseScenario(json);
  } catch (err) {
    throw new Error(`scenario ${path}: ${(err as Error).message}`);
  }
}

/** Accept the array shorthand wherever a scenario is taken. */
export function toScenario(scenario: Scenario | TurnSpec[]): Scenario {
  return Array.isArray(scenario)
    ? { turns: [...scenario] }
    : { ...scenario, turns: [...scenario.turns] };
}
