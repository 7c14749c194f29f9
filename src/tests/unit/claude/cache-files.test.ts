// What the agent keeps in its cache dir between runs (starts.json, models.json, the SDK's
// compiled code) is read only from a small regular file: anything else in its place (a
// FIFO, a link, to /dev/zero or elsewhere, a directory, a huge file) is no cache, said once
// on stderr, and neither blocks the agent nor costs it more than the limit. What it writes
// there replaces whatever is in the file's place, never writing through it.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readStarts, type StoredPlan, startsText } from "../../../claude/start-plan.js";
import type { ModelInfo } from "../../../claude/types.js";
import { setLogLevel } from "../../../logger.js";
import { CODE_CACHE_MAX_BYTES, runWithCodeCache } from "../../../runtime/code-cache.js";
import { ModelCache } from "../../../session/configuration/model-cache.js";
import {
  CACHE_FILE_MAX_BYTES,
  readCacheFile,
  readCacheFileSync,
} from "../../../util/cache-file.js";
import { writeWhole } from "../../../util/whole-file.js";

/** A hostile writer or reader that comes too late: a read that waits for it fails the test. */
const LATE_MS = 2_000;
/** What "at once" means here: far less than LATE_MS, even on a loaded machine. */
const PROMPT_MS = 1_000;

const helpers: ChildProcess[] = [];
let stderr: string[] = [];

beforeEach(() => {
  setLogLevel("warn");
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  setLogLevel("error");
  // A helper still waiting on its FIFO is one the code under test rightly ignored.
  for (const helper of helpers.splice(0)) helper.kill();
});

function dir(): string {
  return mkdtempSync(join(tmpdir(), "acp-cache-files-"));
}

function fifo(path: string): string {
  execFileSync("mkfifo", [path]);
  return path;
}

/** A FIFO that a writer opens LATE_MS from now to write `text`: a blocking read waits for it. */
function fifoWrittenLate(path: string, text = "{}"): string {
  fifo(path);
  helpers.push(
    spawn("sh", ["-c", `sleep ${LATE_MS / 1000}; printf '%s' "$1" > "$2"`, "sh", text, path], {
      stdio: "ignore",
    }),
  );
  return path;
}

/** A FIFO that a reader opens LATE_MS from now: a blocking write waits for it. */
function fifoReadLate(path: string): string {
  fifo(path);
  helpers.push(
    spawn("sh", ["-c", `sleep ${LATE_MS / 1000}; cat "$1" > /dev/null`, "sh", path], {
      stdio: "ignore",
    }),
  );
  return path;
}

/** A sparse file of `bytes`: no disk used, but a read of it whole costs that much memory. */
function sized(path: string, bytes: number, text = ""): string {
  writeFileSync(path, text);
  truncateSync(path, bytes);
  return path;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

async function timedAsync<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

const warnings = (file: string) =>
  stderr.filter((line) => line.includes("warn:") && line.includes(file));

describe("a cache file", () => {
  it("is read when it is a regular file within the limit, up to the limit itself", async () => {
    const d = dir();
    const small = join(d, "small.json");
    writeFileSync(small, '{"version":1}');
    expect(readCacheFileSync(small)?.toString("utf8")).toBe('{"version":1}');
    expect((await readCacheFile(small))?.toString("utf8")).toBe('{"version":1}');
    const full = sized(join(d, "full.json"), CACHE_FILE_MAX_BYTES, "{}");
    expect(readCacheFileSync(full)?.length).toBe(CACHE_FILE_MAX_BYTES);
    expect((await readCacheFile(full))?.length).toBe(CACHE_FILE_MAX_BYTES);
    expect(stderr).toEqual([]);
  });

  it("that is missing is an empty cache, silently: it is the first run", async () => {
    const missing = join(dir(), "missing.json");
    expect(readCacheFileSync(missing)).toBeUndefined();
    expect(await readCacheFile(missing)).toBeUndefined();
    expect(stderr).toEqual([]);
  });

  it("that is a FIFO is an empty cache at once: nothing waits for a writer", async () => {
    const d = dir();
    const sync = timed(() => readCacheFileSync(fifoWrittenLate(join(d, "sync.json"))));
    expect(sync.value).toBeUndefined();
    expect(sync.ms).toBeLessThan(PROMPT_MS);
    const async = await timedAsync(() => readCacheFile(fifoWrittenLate(join(d, "async.json"))));
    expect(async.value).toBeUndefined();
    expect(async.ms).toBeLessThan(PROMPT_MS);
    expect(warnings(join(d, "sync.json")).join("")).toContain("a FIFO");
  });

  it("that is a symbolic link is not followed: to /dev/zero, to a regular file, or dangling", async () => {
    const d = dir();
    const target = join(d, "target.json");
    writeFileSync(target, "{}");
    for (const [name, to] of [
      ["zero.json", "/dev/zero"],
      ["file.json", target],
      ["dangling.json", join(d, "nowhere")],
    ] as const) {
      const link = join(d, name);
      symlinkSync(to, link);
      expect(readCacheFileSync(link), name).toBeUndefined();
      expect(await readCacheFile(link), name).toBeUndefined();
      expect(warnings(link).join(""), name).toContain("a symbolic link");
    }
  });

  it("that is a directory is an empty cache", async () => {
    const directory = join(dir(), "models.json");
    mkdirSync(directory);
    expect(readCacheFileSync(directory)).toBeUndefined();
    expect(await readCacheFile(directory)).toBeUndefined();
    expect(warnings(directory).join("")).toContain("a directory");
  });

  it("over the limit is an empty cache, from its size alone: one byte over, or 300 MB", async () => {
    const d = dir();
    const over = sized(join(d, "over.json"), CACHE_FILE_MAX_BYTES + 1, "{}");
    expect(readCacheFileSync(over)).toBeUndefined();
    expect(await readCacheFile(over)).toBeUndefined();
    const huge = sized(join(d, "huge.json"), 300 * 1024 * 1024);
    const sync = timed(() => readCacheFileSync(huge));
    expect(sync.value).toBeUndefined();
    expect(sync.ms).toBeLessThan(PROMPT_MS);
    expect(await readCacheFile(huge)).toBeUndefined();
    expect(warnings(huge).join("")).toContain(`over the limit of ${CACHE_FILE_MAX_BYTES} bytes`);
  });

  it("refused is said once per file in the process, with why, and never with its content", async () => {
    const d = dir();
    const over = sized(join(d, "over.json"), CACHE_FILE_MAX_BYTES + 1, '{"secret":"s3cr3t"}');
    const link = join(d, "link.json");
    symlinkSync("/dev/zero", link);
    for (let i = 0; i < 3; i++) {
      readCacheFileSync(over);
      await readCacheFile(over);
      readCacheFileSync(link);
    }
    expect(warnings(over)).toHaveLength(1);
    expect(warnings(link)).toHaveLength(1);
    expect(stderr.join("")).not.toContain("s3cr3t");
  });
});

describe("the remembered starts (starts.json)", () => {
  const plan: StoredPlan = {
    key: "k",
    command: "/bin/claude",
    args: [],
    envSet: {},
    envUnset: [],
  };
  const text = startsText({ plans: [plan] });

  it("are none when a FIFO, a link to /dev/zero or a file over the limit is in the file's place, and the read does not wait", () => {
    const d = dir();
    const read = timed(() => readStarts(fifoWrittenLate(join(d, "fifo.json"), text)));
    expect(read.value).toEqual({ plans: [] });
    expect(read.ms).toBeLessThan(PROMPT_MS);
    const padded = text + " ".repeat(CACHE_FILE_MAX_BYTES);
    expect(readStarts(sized(join(d, "over.json"), padded.length, padded))).toEqual({ plans: [] });
    const zero = join(d, "zero.json");
    symlinkSync("/dev/zero", zero);
    expect(readStarts(zero)).toEqual({ plans: [] });
    // What is refused is the file's kind, not its text.
    writeFileSync(join(d, "plain.json"), text);
    expect(readStarts(join(d, "plain.json")).plans).toEqual([plan]);
  });
});

describe("the remembered models (models.json)", () => {
  const MODELS: ModelInfo[] = [
    { value: "default", displayName: "Default", description: "Opus", supportsAutoMode: true },
  ];

  /** What a run that saw MODELS left in `file`. */
  async function remembered(file: string, env: NodeJS.ProcessEnv): Promise<string> {
    (await new ModelCache(file, env).lookup(process.execPath)).remember(MODELS);
    await expect.poll(() => lstatSync(file, { throwIfNoEntry: false })?.isFile()).toBe(true);
    return readFileSync(file, "utf8");
  }

  it("are none when a FIFO, a link to /dev/zero or a file over the limit is in the file's place, and the lookup does not wait", async () => {
    const d = dir();
    const env = { HOME: d };
    const text = await remembered(join(d, "models.json"), env);
    expect(
      (await new ModelCache(join(d, "models.json"), env).lookup(process.execPath)).known,
    ).toEqual(MODELS);

    const fifoFile = fifoWrittenLate(join(d, "fifo.json"), text);
    const lookup = await timedAsync(() => new ModelCache(fifoFile, env).lookup(process.execPath));
    expect(lookup.value.known).toEqual([]);
    expect(lookup.ms).toBeLessThan(PROMPT_MS);
    const padded = text + " ".repeat(CACHE_FILE_MAX_BYTES);
    const over = sized(join(d, "over.json"), padded.length, padded);
    expect((await new ModelCache(over, env).lookup(process.execPath)).known).toEqual([]);
    const zero = join(d, "zero.json");
    symlinkSync("/dev/zero", zero);
    expect((await new ModelCache(zero, env).lookup(process.execPath)).known).toEqual([]);
  });
});

describe("the compiled code of a script (the V8 code cache)", () => {
  function script(d: string): string {
    const file = join(d, "script.cjs");
    writeFileSync(file, "exports.one = 1;\n");
    return file;
  }
  const one = (exports: unknown) => (exports as { one: number }).one;

  it("is not used, and the script compiled as usual at once, when a FIFO, a link to /dev/zero or a file over its limit is in its place", () => {
    const d = dir();
    const file = script(d);
    const fifoCache = fifoWrittenLate(join(d, "fifo.bin"), "not a cache");
    const run = timed(() => runWithCodeCache(file, fifoCache, {}));
    expect(run.ms).toBeLessThan(PROMPT_MS);
    expect(run.value.cacheUsed).toBe(false);
    expect(one(run.value.exports)).toBe(1);
    expect(warnings(fifoCache).join("")).toContain("a FIFO");

    const over = sized(join(d, "over.bin"), CODE_CACHE_MAX_BYTES + 1);
    expect(runWithCodeCache(file, over, {}).cacheUsed).toBe(false);
    expect(warnings(over).join("")).toContain(`over the limit of ${CODE_CACHE_MAX_BYTES} bytes`);

    const zero = join(d, "zero.bin");
    symlinkSync("/dev/zero", zero);
    expect(one(runWithCodeCache(file, zero, {}).exports)).toBe(1);
    expect(warnings(zero).join("")).toContain("a symbolic link");
  });
});

describe("a cache file written whole", () => {
  it("replaces a symbolic link in its place, never writing through it", async () => {
    const d = dir();
    const target = join(d, "elsewhere.json");
    writeFileSync(target, "the user's file");
    const file = join(d, "models.json");
    symlinkSync(target, file);
    await writeWhole(file, "{}");
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("{}");
    expect(readFileSync(target, "utf8")).toBe("the user's file");
  });

  it("replaces a FIFO in its place without waiting for a reader", async () => {
    const d = dir();
    const file = fifoReadLate(join(d, "models.json"));
    const write = await timedAsync(() => writeWhole(file, "{}"));
    expect(write.ms).toBeLessThan(PROMPT_MS);
    expect(lstatSync(file).isFile()).toBe(true);
  });

  it("goes through a temp file made afresh: a link or a FIFO left at the temp file's name is neither written through nor waited on", async () => {
    const d = dir();
    const target = join(d, "elsewhere.json");
    writeFileSync(target, "the user's file");
    const linked = join(d, "starts.json");
    symlinkSync(target, `${linked}.${process.pid}.tmp`);
    await writeWhole(linked, "{}");
    expect(readFileSync(target, "utf8")).toBe("the user's file");
    expect(lstatSync(linked).isFile()).toBe(true);
    expect(readFileSync(linked, "utf8")).toBe("{}");

    const fifoed = join(d, "models.json");
    fifoReadLate(`${fifoed}.${process.pid}.tmp`);
    const write = await timedAsync(() => writeWhole(fifoed, "{}"));
    expect(write.ms).toBeLessThan(PROMPT_MS);
    expect(lstatSync(fifoed).isFile()).toBe(true);
    expect(readFileSync(fifoed, "utf8")).toBe("{}");
  });
});
