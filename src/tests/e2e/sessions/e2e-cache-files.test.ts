// End-to-end, the agent with something hostile in the place of each file it keeps in its
// cache dir (starts.json, models.json, the SDK's compiled code): a FIFO, whose blocking read
// stops the agent until a writer comes, or a link to /dev/zero, whose read to the end
// exhausts its memory. Each is no cache: the agent answers, serves a prompt, says once which
// file it did not use, and writes a real cache in its place. With the start at launch on,
// starts.json is read once more, before the agent's bundle loads.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installedSdk, sdkCodeCachePath } from "../../../claude/sdk-bundle.js";
import { startsFile } from "../../../claude/start-plan.js";
import { modelCachePath } from "../../../session/configuration/model-cache.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);

const HOSTILE: Record<string, (path: string) => void> = {
  "a FIFO": (path) => execFileSync("mkfifo", [path]),
  "a link to /dev/zero": (path) => symlinkSync("/dev/zero", path),
};

/** A cache dir with `kind` in the place of each file the agent reads from it. */
function hostileCache(kind: string): { env: { XDG_CACHE_HOME: string }; files: string[] } {
  const env = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "acp-hostile-cache-")) };
  const files = [
    startsFile(env),
    modelCachePath(env),
    sdkCodeCachePath(env, installedSdk().version),
  ];
  for (const file of files) {
    mkdirSync(dirname(file), { recursive: true });
    HOSTILE[kind]!(file);
  }
  return { env, files };
}

describe.each([
  ["", {}],
  [" with the start at launch on", { CLAUDE_AGENT_ACP_LAUNCH_START: "1" }],
])("an agent whose cache files are not plain files%s", (_launch, launchEnv) => {
  it.each(Object.keys(HOSTILE))(
    "with %s in the place of each, answers, serves a prompt, says once which file it did not use, and writes a real cache there",
    async (kind) => {
      const { env, files } = hostileCache(kind);
      const e2e = await startE2E({
        scenario: [{ content: [{ type: "text", text: "Hello." }] }],
        env: { ...env, ...launchEnv },
      });
      const { sessionId } = await e2e.newSession();
      expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
      const said = (file: string) =>
        e2e
          .log()
          .split("\n")
          .filter((line) => line.includes("warn:") && line.includes(file));
      for (const file of files) expect(said(file), file).toHaveLength(1);
      for (const file of files) {
        await expect
          .poll(() => lstatSync(file).isFile(), { timeout: 10_000, message: file })
          .toBe(true);
      }
    },
    15_000,
  );
});
