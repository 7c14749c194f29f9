// The ask for a folder's trust (clients without the RFD), what each option decides, what a
// rule chosen in an untrusted folder's session does, and what a session without its
// folder's context starts Claude Code with: never a prewarmed process of another trust.
import { describe, expect, it } from "vitest";
import { hostKey } from "../../../claude/spare-pool.js";
import type { ClaudeQueryOptions } from "../../../claude/query.js";
import { withSessionCopies } from "../../../permissions/effects.js";
import { PRESENTATION_TEXT_LIMIT } from "../../../permissions/presentation.js";
import {
  TRUST_OPTIONS,
  trustAnswerOf,
  trustDescription,
  trustRequest,
} from "../../../permissions/workspace-trust.js";
import { projectSettingSources } from "../../../session/configuration/claude-env.js";

describe("the trust ask", () => {
  it("offers allow once, allow always, then reject, each deciding what its name says", () => {
    expect(TRUST_OPTIONS.map((o) => [o.optionId, o.kind, o.decision])).toEqual([
      ["trust-session", "allow_once", "trust_session"],
      ["trust-folder", "allow_always", "trust_cwd"],
      ["trust-decline", "reject_always", "decline"],
    ]);
    expect(trustAnswerOf("trust-folder")).toBe("trust_cwd");
    expect(trustAnswerOf("allow-once")).toBeUndefined();
  });

  it("is one tool call, announced and asked about alike, with the files as its locations and in its description", () => {
    const { toolCall, request } = trustRequest("workspace-trust-1", "/p", ["/p/CLAUDE.md"]);
    expect(request.toolCall).toBe(toolCall);
    expect(toolCall).toMatchObject({ toolCallId: "workspace-trust-1", status: "pending" });
    expect(toolCall.locations).toEqual([{ path: "/p/CLAUDE.md" }]);
    const meta = request._meta?.permission as Record<string, unknown>;
    expect(meta.version).toBe(1);
    expect(meta.title).toBe("Trust the files in /p?");
    expect(meta.description).toContain("\n- /p/CLAUDE.md");
  });

  it("cleans control characters from the folder and the paths, and keeps a long list within the presentation limit, saying how many more", () => {
    const { toolCall } = trustRequest("t", "/p\u001b[31m\u0007", []);
    expect(toolCall.title).not.toMatch(/\p{Cc}/u);
    const many = Array.from({ length: 500 }, (_, i) => `/p/${"x".repeat(40)}-${i}\u0000`);
    const text = trustDescription(many);
    expect(text.length).toBeLessThanOrEqual(PRESENTATION_TEXT_LIMIT);
    expect(text).toMatch(/\(and \d+ more\)$/);
    expect(text).not.toContain("\u0000");
  });
});

describe("a rule chosen in a session that does not read the project's settings", () => {
  const rule = {
    type: "addRules" as const,
    rules: [{ toolName: "Bash", ruleContent: "npm test *" }],
    behavior: "allow" as const,
    destination: "localSettings" as const,
  };

  it("is saved where the user chose and also holds for the session", () => {
    const result = withSessionCopies({ behavior: "allow", updatedPermissions: [rule] });
    expect(result).toEqual({
      behavior: "allow",
      updatedPermissions: [rule, { ...rule, destination: "session" }],
    });
  });

  it("leaves a denial, a session's own rule and a mode change as they are", () => {
    const deny = { behavior: "deny" as const, message: "no" };
    expect(withSessionCopies(deny)).toBe(deny);
    const mode = {
      behavior: "allow" as const,
      updatedPermissions: [
        { type: "setMode" as const, mode: "plan" as const, destination: "session" as const },
      ],
    };
    expect(withSessionCopies(mode)).toBe(mode);
  });
});

describe("what a session without its folder's context starts Claude Code with", () => {
  const base: ClaudeQueryOptions = {
    cwd: "/work",
    executable: "/bin/claude",
    env: {},
    canUseTool: () => Promise.resolve({ behavior: "deny", message: "no" }),
  };

  it("reads only the user's settings, whatever the client asked", () => {
    expect(projectSettingSources({}, true)).toBeUndefined();
    expect(projectSettingSources({ settingSources: ["project"] }, true)).toEqual(["project"]);
    expect(projectSettingSources({}, false)).toEqual(["user"]);
    expect(projectSettingSources({ settingSources: ["project", "local"] }, false)).toEqual([]);
  });

  it("never uses a prewarmed process started for another trust: the switch and the sources name the process", () => {
    const trusted = hostKey(base);
    const untrusted = hostKey({
      ...base,
      env: { CLAUDE_CODE_IGNORE_PERSISTED_TRUST: "1" },
      settingSources: ["user"],
    });
    expect(untrusted).not.toBe(trusted);
    expect(hostKey({ ...base, env: { CLAUDE_CODE_IGNORE_PERSISTED_TRUST: "1" } })).not.toBe(
      trusted,
    );
    expect(hostKey({ ...base, settingSources: ["user"] })).not.toBe(trusted);
  });
});
