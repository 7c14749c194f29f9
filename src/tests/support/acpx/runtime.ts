import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { cp, mkdir, readFile, rename, rm } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { isRecord } from "../../../util/records.js";
import { REPO_ROOT } from "../e2e/paths.js";

/**
 * acpx declares Node 22.13+, and the agent supports Node 20: so acpx is not a dependency of
 * the project (on Node 20 `npm ci` would warn EBADENGINE for it). The tests install it on
 * first use, pinned by the lockfiles under `runtime/`, and run it with a Node it supports:
 * the tests' own when it is 22.13 or later, else Node 22 from the npm registry (the official
 * builds, published as one package per platform). Nothing runs an install script.
 */
const PINNED = join(REPO_ROOT, "src/tests/support/acpx/runtime");
const CACHE = join(REPO_ROOT, "node_modules/.cache/acpx-runtime");
const NPM_FLAGS = ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
const INSTALL_TIMEOUT_MS = 300_000;

/** How to run acpx: its CLI script, and the Node that runs it. */
export interface AcpxRuntime {
  node: string;
  cli: string;
}

let installing: Promise<AcpxRuntime> | undefined;

/** acpx, installed once per checkout and lockfile (concurrent runs each get a whole one). */
export function acpxRuntime(): Promise<AcpxRuntime> {
  installing ??= install();
  installing.catch(() => (installing = undefined));
  return installing;
}

async function install(): Promise<AcpxRuntime> {
  const ownNodeWill = supportsAcpx(process.versions.node);
  const key = createHash("sha256")
    .update(readFileSync(join(PINNED, "acpx/package-lock.json")))
    .update(ownNodeWill ? process.execPath : readFileSync(join(PINNED, "node/package-lock.json")))
    .update(`${process.platform}-${process.arch}`)
    .digest("hex")
    .slice(0, 16);
  const target = join(CACHE, key);
  if (!existsSync(join(target, "acpx/node_modules/acpx/package.json"))) {
    const staging = `${target}.${process.pid}.${Date.now()}`;
    try {
      await stage(staging, ownNodeWill);
      await rename(staging, target).catch((error: unknown) => {
        // Another run finished first: its copy is as good.
        if (!existsSync(join(target, "acpx/node_modules/acpx/package.json"))) throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  return {
    node: ownNodeWill ? process.execPath : nodeIn(join(target, "node")),
    cli: await cliOf(join(target, "acpx/node_modules/acpx")),
  };
}

/** Installs the pinned Node (unless the tests' own will do), then acpx with that Node. */
async function stage(dir: string, ownNodeWill: boolean): Promise<void> {
  await mkdir(dir, { recursive: true });
  let node = process.execPath;
  if (!ownNodeWill) {
    await cp(join(PINNED, "node"), join(dir, "node"), { recursive: true });
    await run(process.execPath, [npmCli(), ...NPM_FLAGS], join(dir, "node"));
    node = nodeIn(join(dir, "node"));
  }
  await cp(join(PINNED, "acpx"), join(dir, "acpx"), { recursive: true });
  // npm run by the Node that will run acpx: its engine check holds, and says nothing.
  await run(node, [npmCli(), ...NPM_FLAGS], join(dir, "acpx"));
}

/** acpx 0.19's engines: Node 22.13 or later. */
function supportsAcpx(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

function nodeIn(dir: string): string {
  const node = join(dir, "node_modules", `node-${process.platform}-${process.arch}`, "bin/node");
  if (!existsSync(node)) {
    throw new Error(
      `acpx needs Node 22.13 or later, and the pinned Node 22 has no package for ` +
        `${process.platform}-${process.arch}: run the tests on Node 22.13 or later`,
    );
  }
  return node;
}

/** npm's own script, to run under another Node: the one running these tests, or on PATH. */
function npmCli(): string {
  const own = process.env.npm_execpath;
  if (own?.endsWith("npm-cli.js")) return own;
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    const npm = join(folder, "npm");
    if (!existsSync(npm)) continue;
    const script = realpathSync(npm);
    if (script.endsWith(".js")) return script;
    const beside = join(dirname(dirname(script)), "lib/node_modules/npm/bin/npm-cli.js");
    if (existsSync(beside)) return beside;
  }
  throw new Error("the acpx tests install acpx with npm, and no npm was found on PATH");
}

async function run(node: string, args: string[], cwd: string): Promise<void> {
  try {
    await promisify(execFile)(node, args, { cwd, timeout: INSTALL_TIMEOUT_MS });
  } catch (error) {
    const detail = isRecord(error) && typeof error.stderr === "string" ? error.stderr : "";
    throw new Error(
      `could not install the acpx tests' pinned packages in ${cwd} (they come from the npm ` +
        `registry or npm's cache):\n${detail || String(error)}`,
      { cause: error },
    );
  }
}

/** acpx's CLI script, from its package.json `bin` (not from a guessed path). */
async function cliOf(packageDir: string): Promise<string> {
  const manifest: unknown = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8"));
  const bin = isRecord(manifest) ? manifest.bin : undefined;
  const script = typeof bin === "string" ? bin : isRecord(bin) ? bin.acpx : undefined;
  if (typeof script !== "string") throw new Error(`no acpx bin in ${packageDir}`);
  return join(packageDir, script);
}
