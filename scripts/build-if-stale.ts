// `npm run demo` builds first, but only when dist/ is older than what it is built from: a
// second run starts at once.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isStale } from "./stale.js";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const INPUTS = ["src", "package.json", "tsconfig.json", "tsconfig.build.json"];
/** What the demo runs; tsc rewrites every output on each build. */
const OUTPUTS = ["dist/index.js", "dist/client/index.js", "dist/demo/index.js"];

function mtimes(path: string): number[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path).flatMap((name) => (name === "tests" ? [] : mtimes(join(path, name))));
}

const outputs = OUTPUTS.map((path) => mtimes(join(REPO, path))[0]);
const inputs = INPUTS.flatMap((path) => mtimes(join(REPO, path)));
if (isStale(inputs, outputs)) {
  const build = spawnSync("npm", ["run", "build"], {
    cwd: REPO,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  process.exit(build.status ?? 1);
}
