// The settings the adapter reads itself before Claude Code starts (session/settings.ts): the
// user's, the project's and the local file, later files winning, as Claude Code reads them.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAdapterSettings } from "../session/settings.js";
import { isolatedEnv } from "./support/in-process.js";

interface Files {
  user?: unknown;
  project?: unknown;
  local?: unknown;
}

/** A user config dir and a project holding `files`; returns the project's cwd and the env. */
function withFiles(files: Files): { cwd: string; env: NodeJS.ProcessEnv } {
  const env = isolatedEnv();
  const cwd = mkdtempSync(join(tmpdir(), "adapter-settings-"));
  mkdirSync(join(cwd, ".claude"));
  mkdirSync(env.CLAUDE_CONFIG_DIR!, { recursive: true });
  const write = (path: string, content: unknown) =>
    content !== undefined && writeFileSync(path, JSON.stringify(content));
  write(join(env.CLAUDE_CONFIG_DIR!, "settings.json"), files.user);
  write(join(cwd, ".claude", "settings.json"), files.project);
  write(join(cwd, ".claude", "settings.local.json"), files.local);
  return { cwd, env };
}

describe("env.ANTHROPIC_MODEL of the settings files", () => {
  it("is read from the last file that sets it", async () => {
    const { cwd, env } = withFiles({
      user: { env: { ANTHROPIC_MODEL: "haiku" } },
      project: { env: { ANTHROPIC_MODEL: "sonnet" } },
      local: { env: { OTHER: "1" } },
    });
    expect(await loadAdapterSettings(cwd, env)).toMatchObject({ envModel: "sonnet" });
  });

  it("is read when empty: it hides the agent's own", async () => {
    const { cwd, env } = withFiles({
      user: { env: { ANTHROPIC_MODEL: "haiku" } },
      local: { env: { ANTHROPIC_MODEL: "" } },
    });
    expect(await loadAdapterSettings(cwd, env)).toMatchObject({ envModel: "" });
  });

  it("is ignored when it is not a string, and the file's other settings still apply", async () => {
    const { cwd, env } = withFiles({
      project: { model: "sonnet", env: { ANTHROPIC_MODEL: 42 } },
    });
    const settings = await loadAdapterSettings(cwd, env);
    expect(settings.envModel).toBeUndefined();
    expect(settings.model).toBe("sonnet");
  });
});
