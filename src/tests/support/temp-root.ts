import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Vitest global setup: every temp dir a test run makes (its own, the agent's, Claude
// Code's) goes under one root that is removed when the run ends, so runs leave nothing in
// the system's temp dir. Test workers and the processes they spawn inherit TMPDIR.
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "acp-tests-"));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
