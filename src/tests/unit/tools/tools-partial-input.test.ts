import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePartialInput } from "../../../tools/partial-input.js";

const documents: Record<string, unknown>[] = [
  { command: "npm test", description: "Run the tests", timeout: 120000 },
  { file_path: "/project/a.ts", old_string: 'say "hi"\n\\', new_string: "b", replace_all: false },
  { file_path: "/project/a.ts", offset: -1.5e3, limit: 0 },
  {
    todos: [
      { content: "a {b} [c]", status: "in_progress", activeForm: "doing a" },
      { content: "d", status: "pending", activeForm: "e" },
    ],
    nothing: null,
    nested: { deep: [[1, 2], { x: "}" }], empty: {} },
  },
  { unicode: "é ☃ \u2028 😀", escaped: "\u0000\t" },
  {},
];

/** Every way of cutting a JSON text, also with the whitespace a model might put in. */
function prefixes(text: string): string[] {
  return Array.from({ length: text.length + 1 }, (_, i) => text.slice(0, i));
}

/** A value is complete in a prefix when its own text, as in the full document, is inside it. */
function expectOnlyCompleteFields(prefix: string, full: Record<string, unknown>): void {
  const fields = parsePartialInput(prefix);
  for (const [key, value] of Object.entries(fields)) {
    // The matcher, with its diff, only where they differ: it runs for every prefix.
    if (!isDeepStrictEqual(full[key], value)) expect(full[key]).toEqual(value);
  }
}

describe("parsePartialInput yields only complete top-level fields", () => {
  for (const [index, document] of documents.entries()) {
    for (const [style, text] of [
      ["compact", JSON.stringify(document)],
      ["pretty", JSON.stringify(document, null, 2)],
    ] as const) {
      it(`every prefix of document ${index} (${style}) parses to a subset of it`, () => {
        for (const prefix of prefixes(text)) {
          expect(() => parsePartialInput(prefix)).not.toThrow();
          expectOnlyCompleteFields(prefix, document);
        }
        expect(parsePartialInput(text)).toEqual(document);
      });
    }
  }

  it.each([
    ['{"a": 12', {}],
    ['{"a": 12,', { a: 12 }],
    ['{"a": 12 ', { a: 12 }],
    ['{"a": tru', {}],
    ['{"a": true', { a: true }],
    ['{"a": null', { a: null }],
    ['{"a": "x', {}],
    ['{"a": "x"', { a: "x" }],
    ['{"a": "x\\"', {}],
    ['{"a": [1, 2', {}],
    ['{"a": [1, 2]', { a: [1, 2] }],
    ['{"a": {"b": "}"', {}],
    ['{"a": {"b": "}"}', { a: { b: "}" } }],
    ['{"a": 1, "b', { a: 1 }],
    ['{"a": 1, "b":', { a: 1 }],
  ] as const)("%s gives %j", (prefix, fields) => {
    expect(parsePartialInput(prefix)).toEqual(fields);
  });

  it.each([
    ["", {}],
    ["[1, 2]", {}],
    ['"text"', {}],
    ["{oops}", {}],
    ['{"a": 1, "b": nope, "c": 3}', { a: 1 }],
    ['{"a": [1}', {}],
    ['{"a": "\\x"}', {}],
  ] as const)("malformed %j stops at the fields before the error", (text, fields) => {
    expect(parsePartialInput(text)).toEqual(fields);
  });

  it("a __proto__ key is an own field, not a prototype", () => {
    const fields = parsePartialInput('{"__proto__": {"polluted": true}}');
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.hasOwn(fields, "__proto__")).toBe(true);
    expect((fields as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("every prefix of any JSON object never throws and is a subset of it", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (value, pretty) => {
        const document = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
        const text = JSON.stringify(document, null, pretty ? 1 : undefined);
        for (const prefix of prefixes(text)) expectOnlyCompleteFields(prefix, document);
        expect(parsePartialInput(text)).toEqual(document);
      }),
      { numRuns: 200 },
    );
    // Every prefix of every document: seconds alone, far more on a loaded machine.
  }, 120_000);
});
