import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The built agent the bench spawns. */
export const AGENT_ENTRY = join(REPO_ROOT, "dist", "index.js");

export function requireBuiltAgent(): string {
  if (!existsSync(AGENT_ENTRY)) {
    throw new Error(`The built agent is missing (${AGENT_ENTRY}): run \`npm run build\` first.`);
  }
  return AGENT_ENTRY;
}
