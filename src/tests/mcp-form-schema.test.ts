import { describe, expect, it } from "vitest";
import { formSchema, validAnswer } from "../mcp/form-schema.js";

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
