import { isRecord } from "../util/records.js";
import type { ToolInput } from "./types.js";

export { isRecord };

/** Reads a string field of untrusted tool input; anything else counts as absent. */
export function stringField(input: ToolInput, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" ? value : undefined;
}

/** A string field that is present and not blank. */
export function nonBlankField(input: ToolInput, key: string): string | undefined {
  const value = stringField(input, key);
  return value?.trim() ? value : undefined;
}

export function numberField(input: ToolInput, key: string): number | undefined {
  const value = input[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function booleanField(input: ToolInput, key: string): boolean | undefined {
  const value = input[key];
  return typeof value === "boolean" ? value : undefined;
}

/** The object elements of an array field; other elements are skipped. */
export function recordsField(input: ToolInput, key: string): Record<string, unknown>[] {
  const value = input[key];
  return Array.isArray(value) ? value.filter(isRecord) : [];
}
