// Form elicitation (`elicitation/create`, mode "form"): the flat schema as a list of fields.
// Keys and values go back to the agent exactly; where one is shown, it is made inert and cut
// to a field's length (text-limits.ts) first.
import { oneLine, sanitize } from "./style.js";
import { cutField } from "./text-limits.js";
import { isRecord } from "../util/records.js";

export interface Choice {
  value: string;
  title: string;
  description?: string;
}

interface FieldBase {
  key: string;
  title: string;
  description?: string;
  required: boolean;
}

export type FormField =
  | (FieldBase & { kind: "choice"; choices: Choice[]; default?: string })
  | (FieldBase & { kind: "multi"; choices: Choice[]; default?: string[] })
  | (FieldBase & { kind: "text"; default?: string })
  | (FieldBase & { kind: "number"; integer: boolean; default?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean });

export type FormValue = string | number | boolean | string[];

/** A schema's string as shown: one line, cut. */
const shown = (v: string): string => oneLine(cutField(v));

const text = (v: unknown): string | undefined =>
  typeof v === "string" && shown(v) !== "" ? shown(v) : undefined;

/** Titled `oneOf`/`anyOf` items, or a bare `enum` (with optional `enumNames`). */
function choicesOf(schema: Record<string, unknown>): Choice[] | undefined {
  const titled = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  if (titled) {
    const choices = titled.filter(isRecord).flatMap((c): Choice[] => {
      if (typeof c.const !== "string") return [];
      const description = text(c.description);
      return [
        {
          value: c.const,
          title: text(c.title) ?? shown(c.const),
          ...(description ? { description } : {}),
        },
      ];
    });
    return choices.length > 0 ? choices : undefined;
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    const choices = schema.enum
      .filter((v): v is string => typeof v === "string")
      .map((value, i): Choice => ({ value, title: text(names[i]) ?? shown(value) }));
    return choices.length > 0 ? choices : undefined;
  }
  return undefined;
}

/**
 * The fields we can ask for, in schema order. Properties of a type we do not know are
 * left out (a required one makes the form unanswerable: see `unanswerable`).
 */
export function formFields(requestedSchema: unknown): { fields: FormField[]; unknown: string[] } {
  const schema = isRecord(requestedSchema) ? requestedSchema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === "string")
      : [],
  );
  const fields: FormField[] = [];
  const unknown: string[] = [];
  for (const [key, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    const description = text(property.description);
    const base: FieldBase = {
      key,
      title: text(property.title) ?? shown(key),
      ...(description ? { description } : {}),
      required: required.has(key),
    };
    switch (property.type) {
      case "string": {
        const choices = choicesOf(property);
        const dflt = typeof property.default === "string" ? { default: property.default } : {};
        fields.push(
          choices
            ? { ...base, kind: "choice", choices, ...dflt }
            : { ...base, kind: "text", ...dflt },
        );
        break;
      }
      case "array": {
        const choices = isRecord(property.items) ? choicesOf(property.items) : undefined;
        if (!choices) {
          unknown.push(key);
          break;
        }
        const dflt = Array.isArray(property.default)
          ? { default: property.default.filter((v): v is string => typeof v === "string") }
          : {};
        fields.push({ ...base, kind: "multi", choices, ...dflt });
        break;
      }
      case "number":
      case "integer":
        fields.push({
          ...base,
          kind: "number",
          integer: property.type === "integer",
          ...(typeof property.default === "number" ? { default: property.default } : {}),
        });
        break;
      case "boolean":
        fields.push({
          ...base,
          kind: "boolean",
          ...(typeof property.default === "boolean" ? { default: property.default } : {}),
        });
        break;
      default:
        unknown.push(key);
    }
  }
  return { fields, unknown: unknown.filter((key) => required.has(key)) };
}

/**
 * The answer of a client that does not ask: the first choice of each choice field, the
 * first item of each multi-select, defaults for the rest (fields without one stay empty).
 */
export function firstChoiceContent(fields: readonly FormField[]): Record<string, FormValue> {
  const content: Record<string, FormValue> = {};
  for (const field of fields) {
    switch (field.kind) {
      case "choice":
        content[field.key] = field.default ?? field.choices[0]!.value;
        break;
      case "multi":
        content[field.key] = field.default ?? [field.choices[0]!.value];
        break;
      case "text":
        if (field.default !== undefined) content[field.key] = field.default;
        else if (field.required) content[field.key] = "";
        break;
      case "number":
        if (field.default !== undefined) content[field.key] = field.default;
        else if (field.required) content[field.key] = 0;
        break;
      case "boolean":
        if (field.default !== undefined || field.required)
          content[field.key] = field.default ?? false;
        break;
    }
  }
  return content;
}

/** A value as a human reads it (a text may be the agent's default). */
export function describeValue(field: FormField, value: FormValue): string {
  const titleOf = (v: string): string =>
    field.kind === "choice" || field.kind === "multi"
      ? (field.choices.find((c) => c.value === v)?.title ?? sanitize(cutField(v)))
      : sanitize(cutField(v));
  if (Array.isArray(value)) return value.length ? value.map(titleOf).join(", ") : "(none)";
  if (typeof value === "string") return JSON.stringify(titleOf(value));
  return String(value);
}
