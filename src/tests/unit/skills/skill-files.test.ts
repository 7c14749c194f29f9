// Which of Claude Code's commands are skills, and the file each is read from (skills/files.ts).
import { describe, expect, it } from "vitest";
import { sameSkillFiles, skillFiles } from "../../../skills/files.js";

describe("a skill's file, as Claude Code reports it", () => {
  it("a skill with a SKILL.md has its path; a bundled skill has none; a prompt file of .claude/commands is no skill", () => {
    const files = skillFiles([
      { name: "greet", path: "/project/.claude/skills/greet/SKILL.md" },
      { name: "simplify" },
      { name: "deploy", path: "/project/.claude/commands/deploy.md" },
    ]);
    expect([...files]).toEqual([
      ["greet", "/project/.claude/skills/greet/SKILL.md"],
      ["simplify", null],
    ]);
  });

  it("a path that is not absolute, or that cleaning would change, is not shown: the skill is listed without it", () => {
    const files = skillFiles([
      { name: "relative", path: "skills/relative/SKILL.md" },
      { name: "odd", path: "/project/odd\u001b]0;x\u0007/SKILL.md" },
    ]);
    expect([...files]).toEqual([
      ["relative", null],
      ["odd", null],
    ]);
  });

  it("two reports are the same when they name the same skills with the same files; none known is an empty report", () => {
    const a = skillFiles([{ name: "greet", path: "/p/greet/SKILL.md" }]);
    expect(sameSkillFiles(a, skillFiles([{ name: "greet", path: "/p/greet/SKILL.md" }]))).toBe(
      true,
    );
    expect(sameSkillFiles(a, skillFiles([{ name: "greet" }]))).toBe(false);
    expect(sameSkillFiles(undefined, skillFiles([]))).toBe(true);
    expect(sameSkillFiles(undefined, a)).toBe(false);
  });
});
