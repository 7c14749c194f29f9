// The terminal client against an agent that sends megabytes where a line is expected (a
// title, a task, an option name, a reply without a line break): what it shows stays a
// screen's worth, says how long the whole was, and comes at once. The client is the built one
// (dist/client/index.js), in tmux or with pipes; the agent is the stub, bundled.
import { spawn } from "node:child_process";
import { mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HUGE } from "../support/client-stub-texts.js";
import {
  builtClient,
  startClient as startStubClient,
  STUB_AGENT,
  stopClients,
} from "../support/client-tmux-stub.js";
import type { Tmux } from "../support/tmux.js";

/** What the client writes for all of a scenario: a few screens, not megabytes. */
const MAX_OUTPUT_BYTES = 100_000;
/** How long the permission box may take to open: generous, the point is that it is not minutes. */
const BOX_TIMEOUT_MS = 15_000;
/** The note after each cut field: the stub's fields are HUGE characters long. */
const FULL_LENGTH = `… (${HUGE.toLocaleString("en-US")} characters)`;

/** After `lead`, the start of a field made of `word`s, cut, then its full length. */
const cutField = (lead: string, word: string): RegExp =>
  new RegExp(`${lead}\\s*${word}[a-z ]*${FULL_LENGTH.replace(/[().]/g, "\\$&")}`);

afterEach(stopClients);

/**
 * The client in tmux against the stub, at its prompt; what it writes from then on is recorded
 * in the file returned.
 */
async function startClient(): Promise<{ tmux: Tmux; recording: string }> {
  const tmux = await startStubClient();
  const recording = join(await mkdtemp(join(tmpdir(), "acp-client-huge-")), "pane-output");
  await tmux.record(recording);
  return { tmux, recording };
}

/** Bytes the pane received since `startClient`. */
async function writtenBytes(tmux: Tmux, recording: string): Promise<number> {
  await tmux.stopRecording();
  return (await stat(recording)).size;
}

/** The screen with our own line wrapping undone: rows joined, box bars and indents dropped. */
const unwrapped = (screen: string): string => screen.replace(/\s*\n[│\s]*/g, " ");

/** The built client with pipes (no terminal): its transcript, stderr and exit code. */
async function piped(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [builtClient(), ...args, "--", ...STUB_AGENT], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

describe("an agent's huge single-line fields", () => {
  it(
    "a 10 MB tool title, task and option name are cut to a screen's worth with their full length, and the permission box opens at once",
    { timeout: 60_000 },
    async () => {
      const { tmux, recording } = await startClient();
      await tmux.keys("-l", "huge");
      await tmux.keys("Enter");

      const box = unwrapped(await tmux.waitFor(/Esc to cancel/, BOX_TIMEOUT_MS));
      expect(box).toMatch(cutField("●", "title"));
      expect(box).toMatch(cutField("◐", "task"));
      expect(box).toMatch(cutField("Permission:", "title"));
      expect(box).toMatch(cutField("2\\.", "option"));

      await tmux.keys("Down");
      await tmux.keys("Enter");
      await tmux.waitFor(/Answered: huge/);
      expect(await writtenBytes(tmux, recording)).toBeLessThan(MAX_OUTPUT_BYTES);
    },
  );

  it(
    "in a pipe, the transcript of the same fields stays small and gives each one's full length",
    { timeout: 60_000 },
    async () => {
      const run = await piped(["--answer", "allow-always", "huge"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Answered: huge");
      const transcript = unwrapped(run.stdout);
      for (const [lead, word] of [
        ["●", "title"],
        ["◐", "task"],
        ["Permission:", "title"],
        ["2\\.", "option"],
        ["✓", "option"],
      ] as const) {
        expect(transcript).toMatch(cutField(lead, word));
      }
      expect(Buffer.byteLength(run.stdout)).toBeLessThan(MAX_OUTPUT_BYTES);
    },
  );
});

describe("errors of the ACP library", () => {
  it(
    "a 10 MB reply without a line break is shown cut with its full length, with no library error, and the next prompt works",
    { timeout: 60_000 },
    async () => {
      const { tmux, recording } = await startClient();
      await tmux.keys("-l", "huge-reply");
      await tmux.keys("Enter");
      await tmux.waitFor(/The end\.[\s\S]*Enter to send/, 30_000);
      await tmux.keys("-l", "hello");
      await tmux.keys("Enter");
      const screen = await tmux.waitFor(/You said: "hello"/);

      expect(screen).not.toContain("Error handling notification");
      expect(unwrapped(screen)).toMatch(cutField("", "reply"));
      expect(await writtenBytes(tmux, recording)).toBeLessThan(MAX_OUTPUT_BYTES);
    },
  );

  it(
    "an update the library cannot read is reported on the client's own error line, not written raw to stderr",
    { timeout: 30_000 },
    async () => {
      const run = await piped(["bad-update"]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(/✗ .*session\/update.*Invalid params/);
      expect(run.stdout).toContain("After the bad update.");
    },
  );
});
