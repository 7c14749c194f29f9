/**
 * Property tests: random and mutated SDK suggestion arrays (starting from the real CLI
 * shapes of design.md) go through `snapshotSuggestions` and every option builder. Whatever
 * arrives, nothing throws, and every request keeps the contract's invariants
 * (support/permissions/invariants.ts): valid kinds, unique standard ids, stable grouping,
 * durable effects equal to the snapshot they label or to the tool's generated rule, every
 * durable label checked against the rules, directories, destinations and mode switch its
 * effect writes, and no persistent choice under matchedAskRule except ExitPlanMode's mode
 * choices.
 *
 * Runs per property are tuned so the total stays >= 100,000 arrays.
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import type { PermissionAsk, PlanContext } from "../../../permissions/choices.js";
import { buildChoices } from "../../../permissions/options/index.js";
import { snapshotSuggestions, type SuggestionSnapshot } from "../../../permissions/suggestions.js";
import type { ToolInput } from "../../../tools/index.js";
import { CWD, HOME } from "../../support/permissions/ask.js";
import { checkRequest } from "../../support/permissions/invariants.js";
import { REAL_CLI } from "../../support/permissions/updates.js";

/**
 * The rows of permission-extension.md's "Tool-specific behavior" table. Every array goes
 * through one tool of every row (so through every builder); which tool of a row is drawn
 * at random per array.
 */
const FAMILIES = [
  ["Bash", "PowerShell"],
  ["Read", "Glob", "Grep"],
  ["Edit", "Write", "NotebookEdit", "MultiEdit"],
  ["WebFetch"],
  ["Skill"],
  ["EnterPlanMode"],
  ["ExitPlanMode"],
  ["SandboxNetworkAccess"],
  ["mcp__computer-use__screenshot", "mcp__computer-use__left_click"],
  ["mcp__github__create_issue", "mcp__db__query"],
  ["WebSearch", "Agent", "Task"],
  ["ReviewArtifact", "Workflow"],
  ["Monitor", "SomeFutureTool"],
] as const;
const TOOLS: readonly string[] = FAMILIES.flat();

const RUNS = {
  mutatedRealShapes: 35_000,
  structuredRandom: 35_000,
  junk: 30_000,
};
/** Additional arrays checked for snapshot fidelity only. */
const FIDELITY_RUNS = 5_000;

// ---------------------------------------------------------------- value pools

const nasty = fc.constantFrom(
  "",
  " ",
  "\t",
  "\n",
  "a\nb",
  "\u001b[31mred\u001b[0m",
  "x\u202ey",
  "\u0000",
  "T".repeat(513),
  "c".repeat(10_001),
  "/".concat("d".repeat(4_096)),
);
const toolNames = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...TOOLS, "Bash", "Read", "Edit", "mcp__github", "Read(//etc/**)"),
  },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const ruleContents = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      "npm test *",
      "npm test:*",
      "npm test",
      "git status *",
      "ls:*",
      "npm run *",
      "npm * --fix",
      "node -e 'console.log(1)'",
      " *",
      ":*",
      "*",
      "mkdir -p /outside/dir",
      `${"a".repeat(60)} *`,
      "//etc/**",
      "//outside/dir/**",
      `/${CWD}/**`,
      `/${CWD}/src/**`,
      "///**",
      "//etc/*.conf",
      "/etc/**",
      "domain:example.com",
      "domain:registry.npmjs.org",
      "/.claude/**",
      "~/.claude/**",
      "commit",
      "review:*",
    ),
  },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);
const directories = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      "/outside/dir",
      "/outside/dir/",
      "/etc",
      "/srv",
      CWD,
      `${CWD}/src`,
      "/",
      "/extra",
      "relative/dir",
      "~/x",
      `${HOME}/.claude`,
    ),
  },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const destinations = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.constantFrom(
      "userSettings",
      "projectSettings",
      "localSettings",
      "session",
      "cliArg",
      "session",
      "localSettings",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("teamSettings", "", "Session", null) },
);
const behaviors = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom("allow", "deny", "ask", "allow", "allow") },
  { weight: 1, arbitrary: fc.constantFrom("maybe", "", "ALLOW") },
);
const modes = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.constantFrom(
      "default",
      "acceptEdits",
      "bypassPermissions",
      "plan",
      "dontAsk",
      "auto",
      "acceptEdits",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("yolo", "manual", "") },
);
const updateTypes = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.constantFrom(
      "addRules",
      "replaceRules",
      "removeRules",
      "setMode",
      "addDirectories",
      "removeDirectories",
      "addRules",
      "addRules",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("addHooks", "", "AddRules") },
);

const rule = fc.oneof(
  { weight: 4, arbitrary: fc.record({ toolName: toolNames, ruleContent: ruleContents }) },
  { weight: 2, arbitrary: fc.record({ toolName: toolNames }) },
  {
    weight: 1,
    arbitrary: fc.record({ toolName: toolNames, ruleContent: ruleContents, extra: fc.constant(1) }),
  },
);

/** A structured update: mostly well-typed, sometimes with a wrong or mismatched field. */
const update = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constantFrom("addRules", "replaceRules", "removeRules"),
      rules: fc.array(rule, { minLength: 0, maxLength: 3 }),
      behavior: behaviors,
      destination: destinations,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant("setMode"), mode: modes, destination: destinations }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constantFrom("addDirectories", "removeDirectories"),
      directories: fc.array(directories, { minLength: 0, maxLength: 3 }),
      destination: destinations,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        type: updateTypes,
        rules: fc.array(rule, { maxLength: 2 }),
        mode: modes,
        directories: fc.array(directories, { maxLength: 2 }),
        behavior: behaviors,
        destination: destinations,
      },
      { requiredKeys: ["type"] },
    ),
  },
);

/** Values the SDK types forbid: non-plain, non-cloneable, throwing, or just wrong. */
const WEIRD: ReadonlyArray<() => unknown> = [
  () => null,
  () => undefined,
  () => 0,
  () => Number.NaN,
  () => 10n,
  () => "addRules",
  () => [],
  () => new Map([["type", "setMode"]]),
  () => new Set(["session"]),
  () => new Date(0),
  () => /addRules/,
  () => new Uint8Array(3),
  () => () => REAL_CLI.bashNpmTest[0],
  () => Symbol("update"),
  () => new Proxy({ type: "setMode", mode: "plan", destination: "session" }, {}),
  () =>
    Object.defineProperty({ type: "setMode", mode: "plan" }, "destination", {
      enumerable: true,
      get() {
        throw new Error("getter");
      },
    }),
  () =>
    Object.assign(Object.create(null) as object, {
      type: "setMode",
      mode: "acceptEdits",
      destination: "session",
    }),
  () =>
    new (class Update {
      type = "addDirectories";
      directories = ["/outside/dir"];
      destination = "session";
    })(),
  () => Object.freeze({ type: "setMode", mode: "acceptEdits", destination: "session" }),
  () => ({ type: "setMode", mode: "acceptEdits", destination: "session", [Symbol("k")]: 1 }),
  () => Promise.resolve(1),
  () => new WeakMap(),
];
const weird = fc.integer({ min: 0, max: WEIRD.length - 1 }).map((i) => WEIRD[i]!);

// ---------------------------------------------------------------- mutations of real shapes

type Mutation =
  | { op: "drop"; at: number }
  | { op: "duplicate"; at: number }
  | { op: "swap"; i: number; j: number }
  | { op: "insert"; at: number; update: unknown }
  | { op: "setField"; at: number; key: string; value: unknown }
  | { op: "setRule"; at: number; ruleAt: number; key: string; value: unknown }
  | { op: "weird"; at: number; make: () => unknown }
  | { op: "weirdField"; at: number; key: string; make: () => unknown }
  | { op: "grow"; size: number };

const index = fc.nat({ max: 7 });
const fieldKey = fc.constantFrom(
  "type",
  "destination",
  "behavior",
  "mode",
  "rules",
  "directories",
  "extra",
);
const fieldValue = fc.oneof(
  updateTypes,
  destinations,
  behaviors,
  modes,
  fc.array(rule, { maxLength: 2 }),
  fc.array(directories, { maxLength: 2 }),
  nasty,
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant("drop" as const), at: index }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("duplicate" as const), at: index }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("swap" as const), i: index, j: index }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("insert" as const), at: index, update }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("setField" as const),
      at: index,
      key: fieldKey,
      value: fieldValue,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("setRule" as const),
      at: index,
      ruleAt: fc.nat({ max: 2 }),
      key: fc.constantFrom("toolName", "ruleContent", "extra"),
      value: fc.oneof(toolNames, ruleContents, fc.constant(undefined), fc.constant(null)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("weird" as const), at: index, make: weird }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("weirdField" as const),
      at: index,
      key: fieldKey,
      make: weird,
    }),
  },
);
/** Huge arrays around the 100-update bound: rare, since each costs a hundred updates. */
const grow: fc.Arbitrary<Mutation[]> = fc.oneof(
  { weight: 40, arbitrary: fc.constant<Mutation[]>([]) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 95, max: 130 }).map((size): Mutation[] => [{ op: "grow", size }]),
  },
);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A copy when the value can be cloned, else the value itself (a shared reference). */
function copy(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

function set(target: unknown, key: string, value: unknown): void {
  if (!isObject(target)) return;
  try {
    target[key] = value;
  } catch {
    // frozen, or an accessor without a setter: the value stays as it was
  }
}

function mutate(base: readonly unknown[], mutations: readonly Mutation[]): unknown[] {
  const array: unknown[] = structuredClone(base as unknown[]);
  for (const m of mutations) {
    const at = array.length ? ("at" in m ? m.at % array.length : 0) : 0;
    switch (m.op) {
      case "drop":
        array.splice(at, 1);
        break;
      case "duplicate":
        if (array.length) array.splice(at, 0, copy(array[at]));
        break;
      case "swap":
        if (array.length) {
          const i = m.i % array.length;
          const j = m.j % array.length;
          [array[i], array[j]] = [array[j], array[i]];
        }
        break;
      case "insert":
        array.splice(at, 0, structuredClone(m.update));
        break;
      case "setField": {
        set(array[at], m.key, copy(m.value));
        break;
      }
      case "setRule": {
        const target = array[at];
        const rules = isObject(target) ? target.rules : undefined;
        const ruleTarget =
          Array.isArray(rules) && rules.length
            ? (rules[m.ruleAt % rules.length] as unknown)
            : undefined;
        set(ruleTarget, m.key, m.value);
        break;
      }
      case "weird":
        array.splice(at, 1, m.make());
        break;
      case "weirdField": {
        set(array[at], m.key, m.make());
        break;
      }
      case "grow": {
        const seed = array.length ? array : [structuredClone(REAL_CLI.bashNpmTest[0])];
        while (array.length < m.size) array.push(copy(seed[array.length % seed.length]));
        break;
      }
      default: {
        const unknown: never = m;
        throw new Error(`unknown mutation ${JSON.stringify(unknown)}`);
      }
    }
  }
  return array;
}

const realShape = fc.constantFrom(...Object.values(REAL_CLI));
const mutatedRealShape = fc
  .tuple(
    realShape,
    fc.array(realShape, { maxLength: 1 }),
    fc.array(mutation, { minLength: 0, maxLength: 5 }),
    grow,
  )
  .map(([base, extra, mutations, huge]) =>
    mutate([...base, ...extra.flat()], [...mutations, ...huge]),
  );

// ---------------------------------------------------------------- asks

/** One input bag for every tool: each builder reads only its own fields. */
const paths = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      "/etc/hostname",
      "/etc/nginx",
      `${CWD}/src/a.ts`,
      `${CWD}/.claude/settings.json`,
      `${CWD}/.claude`,
      `${CWD}/.claudeX/a`,
      `${HOME}/.claude/settings.json`,
      "/outside/dir/new.txt",
      "/outside/dir",
      "/extra/a.ts",
      "/elsewhere/a",
      "relative/a.ts",
      ".claude/agents/a.md",
      "../up.txt",
      "/",
      "",
    ),
  },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 4 });
const inputBag: fc.Arbitrary<ToolInput> = fc
  .record({
    command: maybe(
      fc.constantFrom(
        "npm test",
        "git status && npm test",
        "mkdir -p /outside/dir",
        "",
        "npm run build && node -e 'console.log(1)'",
        "npm test --watch",
        "ls\nnpm  test",
        `${"a".repeat(60)} && ls`,
      ),
    ),
    file_path: maybe(fc.oneof(paths, fc.integer())),
    notebook_path: maybe(paths),
    path: maybe(paths),
    url: maybe(
      fc.oneof(
        fc.constantFrom(
          "https://example.com/a",
          "http://Docs.Example.COM:8080/x",
          "ftp://example.com",
          "not a url",
          "https://[::1]/",
          "https://xn--r8jz45g.jp/",
        ),
        fc.webUrl(),
        nasty,
      ),
    ),
    skill: maybe(
      fc.oneof(
        fc.constantFrom("commit", "review-pr 12", "plugin:x y", "a* b", " /x y ", "/ y"),
        nasty,
        fc.string({ maxLength: 20 }),
      ),
    ),
    host: maybe(
      fc.oneof(fc.constantFrom("example.com", "registry.npmjs.org", " example.com "), nasty),
    ),
    plan: maybe(fc.string({ maxLength: 10 })),
  })
  .map((bag) => Object.fromEntries(Object.entries(bag).filter(([, v]) => v !== undefined)));

const planContext: fc.Arbitrary<PlanContext> = fc.record({
  availableModes: fc
    .subarray(["default", "acceptEdits", "plan", "auto", "bypassPermissions", "dontAsk"])
    .map((m) => new Set<string>(m)),
  planText: fc.oneof(fc.constantFrom("", " \n ", "# Plan\n1. Do it"), fc.string({ maxLength: 10 })),
  contextUsedPercent: maybe(fc.oneof(fc.double(), fc.integer({ min: 0, max: 100 }))),
});

const context = fc.record({
  tools: fc.tuple(...FAMILIES.map((family) => fc.constantFrom(...family))),
  input: inputBag,
  plan: planContext,
  persistentChoicesAllowed: fc.boolean(),
  workingDirectories: fc.subarray(["/extra", "/outside"]).map((extra) => [CWD, ...extra]),
});
type AskContext = typeof context extends fc.Arbitrary<infer T> ? T : never;

function ask(
  toolName: string,
  suggestions: SuggestionSnapshot | undefined,
  ctx: AskContext,
): PermissionAsk {
  return {
    toolName,
    input: ctx.input,
    suggestions,
    persistentChoicesAllowed: ctx.persistentChoicesAllowed,
    cwd: CWD,
    homeDir: HOME,
    workingDirectories: ctx.workingDirectories,
    plan: ctx.plan,
  };
}

/** The whole pipeline for one SDK array: snapshot, then every builder. */
function throughEveryBuilder(suggestions: unknown, ctx: AskContext): void {
  const snapshot = snapshotSuggestions(suggestions);
  for (const tool of ctx.tools) {
    const request = ask(tool, snapshot, ctx);
    checkRequest(request, buildChoices(request));
  }
}

function assertProperty<T>(arb: fc.Arbitrary<T>, numRuns: number, run: (value: T) => void): void {
  fc.assert(
    fc.property(arb, (value) => {
      run(value);
    }),
    { numRuns },
  );
}

// CPU-bound: about 16 s in all on a quiet machine; a busy CI box needs more headroom.
const FUZZ_TIMEOUT_MS = 180_000;

describe(
  "fuzz: SDK suggestion arrays through snapshotSuggestions and every builder",
  { timeout: FUZZ_TIMEOUT_MS },
  () => {
    it(`mutated real CLI shapes (drop, duplicate, reorder, retype, bad strings, huge arrays, non-plain objects): ${RUNS.mutatedRealShapes} arrays`, () => {
      assertProperty(
        fc.tuple(mutatedRealShape, context),
        RUNS.mutatedRealShapes,
        ([suggestions, ctx]) => throughEveryBuilder(suggestions, ctx),
      );
    });

    it(`structured random updates, mostly valid: ${RUNS.structuredRandom} arrays`, () => {
      const arrays = fc.oneof(
        { weight: 40, arbitrary: fc.array(update, { minLength: 0, maxLength: 4 }) },
        { weight: 1, arbitrary: fc.array(update, { minLength: 95, maxLength: 110 }) },
      );
      assertProperty(fc.tuple(arrays, context), RUNS.structuredRandom, ([suggestions, ctx]) =>
        throughEveryBuilder(suggestions, ctx),
      );
    });

    it(`arbitrary values where suggestions belong: ${RUNS.junk} values`, () => {
      const junk = fc.oneof(
        fc.anything({ maxDepth: 3 }),
        fc.array(
          fc.oneof(
            update,
            weird.map((make) => make()),
          ),
          { maxLength: 4 },
        ),
        weird.map((make) => make()),
      );
      assertProperty(fc.tuple(junk, context), RUNS.junk, ([suggestions, ctx]) =>
        throughEveryBuilder(suggestions, ctx),
      );
    });

    it(`a snapshot is an equal, deep-frozen, independent copy of a valid array: ${FIDELITY_RUNS} arrays`, () => {
      assertProperty(
        fc.array(update, { minLength: 1, maxLength: 5 }),
        FIDELITY_RUNS,
        (suggestions) => {
          const before = structuredClone(suggestions);
          const snapshot = snapshotSuggestions(suggestions);
          if (snapshot === undefined) return;
          expect(isDeepStrictEqual(snapshot, before)).toBe(true);
          expect(snapshot).not.toBe(suggestions);
          // Mutating the SDK's array afterwards does not reach the snapshot.
          suggestions.push({
            type: "setMode",
            mode: "bypassPermissions",
            destination: "userSettings",
          });
          for (const u of suggestions) (u as Record<string, unknown>).destination = "userSettings";
          expect(isDeepStrictEqual(snapshot, before)).toBe(true);
          const frozen = (value: unknown): boolean =>
            typeof value !== "object" ||
            value === null ||
            (Object.isFrozen(value) && Object.values(value).every(frozen));
          expect(frozen(snapshot)).toBe(true);
        },
      );
    });

    it("at least 100,000 arrays go through snapshotSuggestions and every builder", () => {
      expect(Object.values(RUNS).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(100_000);
    });
  },
);
