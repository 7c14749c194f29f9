import type { ElicitationPropertySchema, ElicitationSchema } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { cleanMultiline, cleanSingleLine } from "../util/text.js";

/**
 * The forms MCP servers may ask for (a flat object of primitive fields, the MCP
 * elicitation schema) and the answers they may get. The server's schema is read, not
 * trusted: a field we cannot describe to the client makes the form unusable, and what
 * the client answers is checked against the form before the server sees it.
 */

/** A label (title, enum name): shown, so cleaned, on one line; nothing left is no label. */
const label = z
  .string()
  .transform((t) => cleanSingleLine(t) || undefined)
  .optional()
  .catch(undefined);
/** A description: shown, so cleaned, as the server's message is. */
const prose = z
  .string()
  .transform((t) => cleanMultiline(t).trim() || undefined)
  .optional()
  .catch(undefined);
/**
 * What the client sends back (a field's name, a choice's value, a default): the server must
 * get its own text, so it is never cleaned. One that cleaning would change, holding escape
 * sequences, controls or bidi overrides, cannot be shown as it is: a choice or a name makes
 * the form unusable (the server gets cancel), a default is left out (the field stays).
 */
const verbatim = z.string().refine((v) => cleanMultiline(v) === v);
const count = z.number().int().nonnegative().optional().catch(undefined);
const bound = z.number().optional().catch(undefined);
const choice = z
  .object({ const: verbatim, title: label })
  .transform((c) => ({ const: c.const, title: c.title ?? c.const }));

const stringField = z.object({
  type: z.literal("string"),
  title: label,
  description: prose,
  minLength: count,
  maxLength: count,
  format: z.enum(["email", "uri", "date", "date-time"]).optional().catch(undefined),
  default: verbatim.optional().catch(undefined),
  enum: z.array(verbatim).optional(),
  enumNames: z.array(z.string().transform(cleanSingleLine)).optional().catch(undefined),
  oneOf: z.array(choice).optional(),
});
const numberField = z.object({
  type: z.enum(["number", "integer"]),
  title: label,
  description: prose,
  minimum: bound,
  maximum: bound,
  default: z.number().optional().catch(undefined),
});
const booleanField = z.object({
  type: z.literal("boolean"),
  title: label,
  description: prose,
  default: z.boolean().optional().catch(undefined),
});
const arrayField = z.object({
  type: z.literal("array"),
  title: label,
  description: prose,
  minItems: count,
  maxItems: count,
  items: z.union([
    z.object({ type: z.literal("string").default("string"), enum: z.array(verbatim) }),
    z.object({ anyOf: z.array(choice) }),
  ]),
  default: z.array(verbatim).optional().catch(undefined),
});
const field = z.discriminatedUnion("type", [stringField, numberField, booleanField, arrayField]);
type Field = z.infer<typeof field>;

const mcpForm = z.object({
  type: z.literal("object").optional(),
  properties: z.record(verbatim, field),
  required: z.array(z.string()).optional().catch(undefined),
});

/** Drops undefined members, so the schema sent to the client holds only what was given. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The server's form as ACP describes it, or undefined when it is not a form we can show. */
export function formSchema(requested: unknown): ElicitationSchema | undefined {
  const parsed = mcpForm.safeParse(requested);
  if (!parsed.success) return undefined;
  const properties: Record<string, ElicitationPropertySchema> = {};
  for (const [name, f] of Object.entries(parsed.data.properties)) {
    properties[name] = defined(
      f.type === "string" && f.enum && f.enumNames?.length === f.enum.length
        ? { ...f, oneOf: f.enum.map((v, i) => ({ const: v, title: f.enumNames?.[i] || v })) }
        : f,
    );
  }
  const required = (parsed.data.required ?? []).filter((name) => name in properties);
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

function choices(f: Field): string[] | undefined {
  if (f.type === "string") return f.enum ?? f.oneOf?.map((o) => o.const);
  if (f.type === "array")
    return "enum" in f.items ? f.items.enum : f.items.anyOf.map((o) => o.const);
  return undefined;
}

function stringValue(f: Extract<Field, { type: "string" }>): z.ZodType {
  const offered = choices(f);
  if (offered) return z.enum(offered as [string, ...string[]]);
  let value = z.string();
  if (f.minLength !== undefined) value = value.min(f.minLength);
  if (f.maxLength !== undefined) value = value.max(f.maxLength);
  switch (f.format) {
    case "email":
      return value.pipe(z.email());
    case "uri":
      return value.pipe(z.url());
    case "date":
      return value.pipe(z.iso.date());
    case "date-time":
      return value.pipe(z.iso.datetime({ offset: true }));
    default:
      return value;
  }
}

function valueOf(f: Field): z.ZodType {
  switch (f.type) {
    case "string":
      return stringValue(f);
    case "number":
    case "integer": {
      let value = f.type === "integer" ? z.number().int() : z.number();
      if (f.minimum !== undefined) value = value.min(f.minimum);
      if (f.maximum !== undefined) value = value.max(f.maximum);
      return value;
    }
    case "boolean":
      return z.boolean();
    case "array": {
      let value = z.array(z.enum(choices(f) as [string, ...string[]]));
      if (f.minItems !== undefined) value = value.min(f.minItems);
      if (f.maxItems !== undefined) value = value.max(f.maxItems);
      return value;
    }
  }
}

/**
 * The client's answer if it fits the form: required fields present, every value of its
 * field's type, within its bounds and choices. Fields the form did not ask for are dropped.
 */
export function validAnswer(
  requested: unknown,
  content: unknown,
): Record<string, string | number | boolean | string[]> | undefined {
  const parsed = mcpForm.safeParse(requested);
  if (!parsed.success) return undefined;
  const required = new Set(parsed.data.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(parsed.data.properties)) {
    shape[name] = required.has(name) ? valueOf(f) : valueOf(f).optional();
  }
  const answer = z.object(shape).safeParse(content ?? {});
  return answer.success
    ? (answer.data as Record<string, string | number | boolean | string[]>)
    : undefined;
}
