// The neutral answer to a side request. "OK" in general, shaped where Claude Code parses
// the reply, so a side request succeeds first time instead of being retried:
// - forced tool -> a tool_use of that tool with the smallest input its schema accepts ({} usually);
// - output_config.format json_schema (session titles) -> the smallest matching JSON;
// - compaction -> the <summary> block the compactor looks for;
// - the auto-mode permission classifier -> "<block>no</block>" (allow). Anything it cannot
//   parse makes Claude Code retry ten times and then block "for safety"; allowing lets the
//   scripted tool call run, which is what the script asked for. A scenario that wants a
//   block answers "<block>yes</block><reason>[Rule] why</reason>" through Scenario.sideReply.
// Like the real API, a reply is cut before the first of the request's stop_sequences.
import { forcedToolName, isCompactionRequest } from "./side-requests.js";
import type { Turn } from "./types.js";
import { isRecord } from "../util/records.js";

/** Smallest value a (simple) JSON schema accepts: required properties only, "OK" for strings. */
export function minimalInstance(schema: unknown, depth = 0): unknown {
  if (!isRecord(schema) || depth > 8) return {};
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return minimalInstance(alternatives[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? (schema.type as unknown[])[0] : schema.type;
  switch (type) {
    case "string":
      return "OK";
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: min }, () => minimalInstance(schema.items, depth + 1));
    }
    default: {
      const props = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      const out: Record<string, unknown> = {};
      for (const key of required) {
        if (typeof key === "string") out[key] = minimalInstance(props[key], depth + 1);
      }
      return out;
    }
  }
}

function isPermissionClassifier(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const stops = Array.isArray(body.stop_sequences) ? body.stop_sequences : [];
  return (
    stops.includes("</block>") ||
    /You are a security monitor/.test(JSON.stringify(body.system ?? ""))
  );
}

/** What the API does with stop_sequences: end the text before the first match. */
export function applyStopSequences(turn: Turn, body: unknown): Turn {
  const raw: unknown[] =
    isRecord(body) && Array.isArray(body.stop_sequences) ? body.stop_sequences : [];
  const stops = raw.filter((s): s is string => typeof s === "string" && s !== "");
  for (const [i, block] of turn.content.entries()) {
    if (block.type !== "text" || block.text === undefined) continue;
    const text = block.text;
    const hits = stops
      .map((s) => ({ s, at: text.indexOf(s) }))
      .filter((h) => h.at >= 0)
      .sort((a, b) => a.at - b.at);
    const first = hits[0];
    if (!first) continue;
    const content = [
      ...turn.content.slice(0, i),
      { type: "text" as const, text: text.slice(0, first.at) },
    ];
    return { ...turn, content, stopReason: "stop_sequence", stopSequence: first.s };
  }
  return turn;
}

export function defaultSideReply(body: unknown): Turn {
  return applyStopSequences(neutralReply(body), body);
}

function neutralReply(body: unknown): Turn {
  const forced = forcedToolName(body);
  if (forced !== undefined && isRecord(body) && Array.isArray(body.tools)) {
    const tool: unknown = body.tools.find((t) => isRecord(t) && t.name === forced);
    const input = isRecord(tool) ? minimalInstance(tool.input_schema) : {};
    return {
      content: [{ type: "tool_use", name: forced, input: isRecord(input) ? input : {} }],
    };
  }
  if (isPermissionClassifier(body)) {
    return { content: [{ type: "text", text: "<block>no</block>" }] };
  }
  if (isCompactionRequest(body)) {
    return { content: [{ type: "text", text: "<analysis>OK</analysis>\n<summary>OK</summary>" }] };
  }
  const format =
    isRecord(body) && isRecord(body.output_config) ? body.output_config.format : undefined;
  if (isRecord(format) && format.type === "json_schema") {
    return { content: [{ type: "text", text: JSON.stringify(minimalInstance(format.schema)) }] };
  }
  return { content: [{ type: "text", text: "OK" }] };
}
