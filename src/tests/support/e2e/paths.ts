import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file (not from the process cwd). */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** The built agent the end-to-end tests spawn. */
export const AGENT_ENTRY = join(REPO_ROOT, "dist", "index.js");

/** Fails fast, never skips: the end-to-end layer is worthless against a missing build. */
export function requireBuiltAgent(): string {
  if (!existsSync(AGENT_ENTRY)) {
    throw new Error(
      `The built agent is missing (${AGENT_ENTRY}): run \`npm run build\` before the end-to-end tests.`,
    );
  }
  return AGENT_ENTRY;
}
