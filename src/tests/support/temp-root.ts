import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Set while a run's root exists: each project of the run runs this setup, one root serves all. */
const ROOT_VARIABLE = "ACP_TESTS_ROOT";

// Vitest global setup: every temp dir a test run makes (its own, the agent's, Claude
// Code's) goes under one root that is removed when the run ends, so runs leave nothing in
// the system's temp dir. Test workers and the processes they spawn inherit TMPDIR.
export default function setup(): () => void {
  if (process.env[ROOT_VARIABLE]) return () => undefined;
  const root = mkdtempSync(join(tmpdir(), "acp-tests-"));
  process.env[ROOT_VARIABLE] = root;
  process.env.TMPDIR = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    delete process.env[ROOT_VARIABLE];
  };
}
