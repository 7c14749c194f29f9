// The warm-up of the permission builders: a Bash request built and answered in process,
// so that the first real request of a process does not run them cold. It has no client
// and no session: it can send nothing and apply nothing.
import { describe, expect, it } from "vitest";
import { warmUpPermissions } from "../permissions/warm-up.js";

describe("the permission warm-up", () => {
  it("builds a Bash request and answers it with its first option, an allow", () => {
    expect(warmUpPermissions()).toMatchObject({ behavior: "allow" });
  });
});
