// The package as users install it: `npm pack` on this checkout (of the build already made,
// which is made again only when src/ is newer, as `npm run demo` does), the
// tarball installed with `npm install -g` into a temporary prefix, and the installed bin run
// as it is: --version, then one scripted turn through acpx, a real client (its initialize
// handshake included), with the real Claude Code the install brought. `npm run test:package`.
import { execFile } from "node:child_process";
import { readdir, readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { isRecord } from "../../util/records.js";
import { acpxRuntime, startAcpx, stopAllAcpx } from "../support/acpx/index.js";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../..", import.meta.url));
/** npm's output can be long (a build's, an install's). */
const OUTPUT_BYTES = 64 * 1024 * 1024;

let root: string;
let files: string[];
let installOutput: string;
let bin: string;
let version: string;

beforeAll(async () => {
  version = (JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as { version: string })
    .version;
  root = await mkdtemp(join(tmpdir(), "claude-agent-acp-package-"));
  // acpx comes from the npm registry (or npm's cache) on first use: fetched here, in the hook.
  await acpxRuntime();
  // prepack would build again what CI built a moment ago.
  await run("node", ["--import", "tsx", "scripts/build-if-stale.ts"], {
    cwd: REPO,
    maxBuffer: OUTPUT_BYTES,
  });
  await run("npm", ["pack", "--ignore-scripts", "--pack-destination", root], {
    cwd: REPO,
    maxBuffer: OUTPUT_BYTES,
  });
  const [tarball] = (await readdir(root)).filter((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  files = (await run("tar", ["tzf", join(root, tarball)], { maxBuffer: OUTPUT_BYTES })).stdout
    .split("\n")
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ""));
  const prefix = join(root, "prefix");
  const install = await run(
    "npm",
    ["install", "-g", join(root, tarball), "--prefix", prefix, "--no-audit", "--no-fund"],
    { cwd: root, maxBuffer: OUTPUT_BYTES },
  );
  installOutput = `${install.stdout}\n${install.stderr}`;
  bin = join(prefix, "bin", "claude-agent-acp");
});

afterEach(stopAllAcpx);
afterAll(() => rm(root, { recursive: true, force: true }));

it("the tarball ships what runs (the bins, the bundled agent, the SDK's copy), the LICENSE and README, and no tests, demo, scripted API, sources or source maps", () => {
  for (const file of [
    "LICENSE",
    "README.md",
    "package.json",
    "dist/index.js",
    "dist/main.js",
    "dist/lib.js",
    "dist/lib.d.ts",
    "dist/client/index.js",
  ]) {
    expect(files).toContain(file);
  }
  expect(files.filter((file) => /^dist\/claude-sdk-.*\.cjs$/.test(file))).toHaveLength(1);
  expect(
    files.filter((file) => /\.map$|^src\/|\/tests\/|^dist\/(demo|scripted-api)\//.test(file)),
  ).toEqual([]);
});

it("installs with no install-script warning, and the installed bin says its version", async () => {
  expect(installOutput).not.toMatch(/install-scripts|allowScripts/);
  const { stdout } = await run(bin, ["--version"]);
  expect(stdout.trim()).toBe(version);
});

it("acpx runs one scripted turn through the installed bin and the Claude Code it installed", async () => {
  const acpx = await startAcpx({
    scenario: [{ content: [{ type: "text", text: "Installed and answering." }] }],
    agentCommand: bin,
  });
  const turn = await acpx.exec("Are you installed?", ["--approve-all"]);

  expect({ code: turn.code, errors: turn.output.errors() }).toEqual({ code: 0, errors: [] });
  expect(turn.output.agentText()).toBe("Installed and answering.");
  expect(turn.output.stopReason()).toBe("end_turn");
  const initialized = turn.output.messages.find(
    (m) => isRecord(m.result) && isRecord(m.result.agentInfo),
  );
  expect(initialized?.result).toMatchObject({ agentInfo: { version } });
  expect(acpx.api.mainRequests()).toHaveLength(1);
});
