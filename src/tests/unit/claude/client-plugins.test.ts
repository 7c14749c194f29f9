// A client's plugin (`_meta.claudeCode.options.plugins`) loads only when all it holds is on
// the allowlist: commands, agents, skills and output styles that describe themselves, under a
// manifest of names and links. Hooks, servers, settings, scripts Claude Code runs by itself,
// `allowed-tools` and shell markers each refuse the whole plugin.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { pluginRefusal } from "../../../claude/client-options/plugins.js";

/** A plugin folder holding `files` (path: text). */
function plugin(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "plugin-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const manifest = (fields: Record<string, unknown>) => JSON.stringify({ name: "p", ...fields });
const command = (frontmatter: string, body = "Say hello.") => `---\n${frontmatter}\n---\n${body}\n`;

describe("a client's plugin", () => {
  it("loads with commands, agents, skills and output styles that only describe themselves", async () => {
    const root = plugin({
      ".claude-plugin/plugin.json": manifest({ version: "1.0.0", author: { name: "A" } }),
      "commands/hello.md": command('description: "Greets"\nargument-hint: <name>'),
      "agents/reviewer.md": command("name: reviewer\ndescription: Reviews\ntools: Read, Grep"),
      "skills/lint/SKILL.md": command("name: lint\ndescription: Lints\n# a comment"),
      "skills/lint/scripts/run.sh": "#!/bin/sh\necho lint\n",
      "output-styles/terse.md": command("name: terse\nkeep-coding-instructions: true"),
      "README.md": "# p\n",
    });
    expect(await pluginRefusal(root, "/")).toBeUndefined();
  });

  it("is refused for hooks, in their folder, in the manifest or in a command's frontmatter", async () => {
    const hooks = JSON.stringify({ hooks: { SessionStart: [] } });
    expect(await pluginRefusal(plugin({ "hooks/hooks.json": hooks }), "/")).toBe("hooks");
    expect(
      await pluginRefusal(
        plugin({ ".claude-plugin/plugin.json": manifest({ hooks: "./more.json" }) }),
        "/",
      ),
    ).toBe("hooks");
    expect(
      await pluginRefusal(plugin({ "commands/x.md": command("hooks:\n  Stop: []") }), "/"),
    ).toBe("hooks");
  });

  it("is refused for anything else Claude Code would start or apply by itself", async () => {
    const cases: Record<string, string>[] = [
      { ".mcp.json": "{}" },
      { ".lsp.json": "{}" },
      { "monitors/monitors.json": "[]" },
      { "settings.json": "{}" },
      { "bin/tool": "#!/bin/sh\n" },
      { "workflows/flow.js": "" },
      { ".claude-plugin/plugin.json": manifest({ mcpServers: {} }) },
      { ".claude-plugin/plugin.json": manifest({ commands: "../elsewhere" }) },
      { ".claude-plugin/plugin.json": "not json" },
      { "commands/x.md": command("allowed-tools: Bash(*)") },
      { "skills/s/SKILL.md": command("name: s\nshell: bash") },
      { "agents/a.md": command("name: a\npermissionMode: bypassPermissions") },
      { "commands/x.md": command("description: x", "Status: !`touch /tmp/marker`") },
      { "skills/s/notes.md": "```!\ntouch /tmp/marker\n```\n" },
      { "commands/x.md": "---\ndescription: never closed\n" },
    ];
    for (const files of cases) {
      expect(await pluginRefusal(plugin(files), "/"), JSON.stringify(files)).toBe("pluginParts");
    }
  });

  it("is refused when it holds a link, is not a folder, or is missing", async () => {
    const linked = plugin({ "commands/x.md": command("description: x") });
    symlinkSync("/etc/passwd", join(linked, "commands", "y.md"));
    expect(await pluginRefusal(linked, "/")).toBe("pluginParts");
    const file = join(plugin({ "a.txt": "" }), "a.txt");
    expect(await pluginRefusal(file, "/")).toBe("pluginParts");
    expect(await pluginRefusal("/nonexistent/plugin", "/")).toBe("pluginParts");
  });

  it("a relative path is the session's directory's, as Claude Code takes it", async () => {
    const root = plugin({ "commands/x.md": command("description: x") });
    expect(await pluginRefusal("x", dirname(root)).catch(() => "error")).toBe("pluginParts");
    expect(await pluginRefusal(root.split("/").at(-1)!, dirname(root))).toBeUndefined();
  });
});
