import { describe, expect, it } from "vitest";
import { formSchema, validAnswer } from "../../../mcp/form-schema.js";
import { unsafeStrings } from "../../support/unsafe-text.js";

const FORM = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 10 },
    email: { type: "string", format: "email" },
    size: { type: "string", enum: ["s", "l"], enumNames: ["Small", "Large"] },
    count: { type: "integer", minimum: 1, maximum: 3 },
    agree: { type: "boolean" },
    tags: { type: "array", items: { anyOf: [{ const: "a", title: "A" }, { const: "b" }] } },
  },
  required: ["name"],
};

describe("an MCP server's form, as the client is asked it", () => {
  it("keeps every field, with enum names as titled choices and untitled choices titled by value", () => {
    const schema = formSchema(FORM);
    expect(schema?.required).toEqual(["name"]);
    expect(schema?.properties?.size).toMatchObject({
      oneOf: [
        { const: "s", title: "Small" },
        { const: "l", title: "Large" },
      ],
    });
    expect(schema?.properties?.tags).toMatchObject({
      items: {
        anyOf: [
          { const: "a", title: "A" },
          { const: "b", title: "b" },
        ],
      },
    });
  });

  it("is not shown when a field is not a primitive the MCP form schema allows", () => {
    expect(formSchema({ type: "object", properties: { nested: { type: "object" } } })).toBe(
      undefined,
    );
    expect(formSchema("not a schema")).toBe(undefined);
  });
});

describe("the client's answer to an MCP form", () => {
  it("reaches the server when it fits, without fields the form did not ask for", () => {
    expect(
      validAnswer(FORM, { name: "Ada", size: "l", count: 2, tags: ["a"], extra: "x" }),
    ).toEqual({ name: "Ada", size: "l", count: 2, tags: ["a"] });
  });

  it.each([
    ["a required field missing", { email: "a@b.c" }],
    ["a string too short", { name: "" }],
    ["a value of the wrong type", { name: "Ada", agree: "yes" }],
    ["a choice not offered", { name: "Ada", size: "xl" }],
    ["a number out of bounds", { name: "Ada", count: 4 }],
    ["a non-integer for an integer", { name: "Ada", count: 1.5 }],
    ["a malformed email", { name: "Ada", email: "nope" }],
    ["a multi-select item not offered", { name: "Ada", tags: ["c"] }],
  ])("is refused with %s", (_rule, content) => {
    expect(validAnswer(FORM, content)).toBe(undefined);
  });
});

const ESC = "\u001b";
const RLO = "\u202e";
/** Escape sequences, controls and bidi controls a server could hide in its words. */
const HOSTILE: Record<string, string> = {
  "concealed text": `${ESC}[8mconcealed`,
  "an OSC 52 clipboard write": `${ESC}]52;c;ZWNobyBwd25lZA==\u0007`,
  "a screen clear": `${ESC}[2J`,
  "a C1 CSI": "\u009b31m",
  "a right-to-left override": RLO,
  "a left-to-right isolate": "\u2066",
};
const HOSTILE_WORDS = Object.values(HOSTILE).join("");
// What is left of them: the concealed text, shown; of a C1 CSI (no ESC), its parameters.
const WORDS = "concealed31m";

describe("an MCP server's words in its form", () => {
  const form = {
    type: "object",
    properties: {
      plan: {
        type: "string",
        title: `Plan${HOSTILE_WORDS}`,
        description: `Pick one.\n${HOSTILE_WORDS}`,
        enum: ["basic", "pro"],
        enumNames: [`Basic${HOSTILE_WORDS}`, `Pro${RLO}`],
        default: "pro",
      },
      colour: {
        type: "string",
        oneOf: [
          { const: "red", title: `Red${HOSTILE_WORDS}` },
          { const: "blue", title: `${ESC}[2J${RLO}` },
        ],
      },
      extras: {
        type: "array",
        title: `Extras${HOSTILE_WORDS}`,
        items: { anyOf: [{ const: "a", title: `A${HOSTILE_WORDS}` }, { const: "b" }] },
        default: ["b"],
      },
      count: { type: "integer", title: `Count${HOSTILE_WORDS}`, description: HOSTILE_WORDS },
      note: { type: "string", default: `${ESC}[8mhidden` },
      tags: { type: "array", items: { enum: ["x"] }, default: ["x", `y${RLO}`] },
    },
  };

  it("reach the client cleaned: titles, descriptions, enum names and choice titles", () => {
    const schema = formSchema(form);
    expect(unsafeStrings(schema)).toEqual([]);
    expect(schema?.properties?.plan).toMatchObject({
      title: `Plan${WORDS}`,
      description: `Pick one.\n${WORDS}`,
      enumNames: [`Basic${WORDS}`, "Pro"],
      oneOf: [
        { const: "basic", title: `Basic${WORDS}` },
        { const: "pro", title: "Pro" },
      ],
    });
    // A title that is nothing once cleaned is titled by its value, as an untitled one.
    expect(schema?.properties?.colour).toMatchObject({
      oneOf: [
        { const: "red", title: `Red${WORDS}` },
        { const: "blue", title: "blue" },
      ],
    });
    expect(schema?.properties?.extras).toMatchObject({
      title: `Extras${WORDS}`,
      items: { anyOf: [{ const: "a", title: `A${WORDS}` }, { const: "b" }] },
    });
    expect(schema?.properties?.count).toMatchObject({
      title: `Count${WORDS}`,
      description: WORDS,
    });
  });

  it("keep the server's own values and defaults exactly, and drop a default that holds a control character", () => {
    const schema = formSchema(form);
    expect(schema?.properties?.plan).toMatchObject({ enum: ["basic", "pro"], default: "pro" });
    expect(schema?.properties?.extras).toMatchObject({ default: ["b"] });
    expect(schema?.properties?.note).not.toHaveProperty("default");
    expect(schema?.properties?.tags).not.toHaveProperty("default");
    expect(validAnswer(form, { plan: "pro", colour: "blue", extras: ["a"] })).toEqual({
      plan: "pro",
      colour: "blue",
      extras: ["a"],
    });
  });

  it.each(
    Object.entries(HOSTILE).flatMap(([what, bad]) => [
      ["an enum value", what, { v: { type: "string", enum: ["ok", `no${bad}`] } }],
      ["a oneOf value", what, { v: { type: "string", oneOf: [{ const: `no${bad}` }] } }],
      ["an anyOf value", what, { v: { type: "array", items: { anyOf: [{ const: `no${bad}` }] } } }],
      ["a multi-select enum value", what, { v: { type: "array", items: { enum: [`no${bad}`] } } }],
      ["a field name", what, { [`name${bad}`]: { type: "string" } }],
    ]),
  )(
    "make the form unusable when %s holds %s: what the client sends back is never changed",
    (_where, _what, properties) => {
      expect(formSchema({ type: "object", properties })).toBe(undefined);
    },
  );
});
