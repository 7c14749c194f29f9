import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ClaudeExecutableNotFoundError } from "../errors.js";

const SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";

/** The SDK ships the real `claude` binary in one optional package per platform. */
export function platformPackageName(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
  musl: boolean = isMusl(),
): string {
  const os = platform === "win32" ? "win32" : platform;
  return `${SDK_PACKAGE}-${os}-${arch}${platform === "linux" && musl ? "-musl" : ""}`;
}

let musl: boolean | undefined;

/** Asked once: `process.report` is slow (tens of ms). */
function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  if (musl === undefined) {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
    musl = !report?.header?.glibcVersionRuntime;
  }
  return musl;
}

/** The bundled binary, once found (the install does not move while the agent runs). */
let bundled: string | undefined;

/**
 * Resolves the Claude Code executable: `CLAUDE_CODE_EXECUTABLE` wins, else the binary
 * of the SDK's platform package, resolved from where the SDK itself is installed.
 */
export function resolveClaudeExecutable(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.CLAUDE_CODE_EXECUTABLE?.trim();
  if (override) {
    if (!existsSync(override)) {
      throw new ClaudeExecutableNotFoundError(
        `CLAUDE_CODE_EXECUTABLE points at ${override}, which does not exist. Point it at a ` +
          `claude binary, or unset it to use the one the Claude Agent SDK ships.`,
      );
    }
    return override;
  }
  if (bundled && existsSync(bundled)) return bundled;
  const pkg = platformPackageName();
  const binary = process.platform === "win32" ? "claude.exe" : "claude";
  try {
    const require = createRequire(import.meta.url);
    const sdkEntry = require.resolve(SDK_PACKAGE);
    const fromSdk = createRequire(sdkEntry);
    const path = join(dirname(fromSdk.resolve(`${pkg}/package.json`)), binary);
    if (existsSync(path)) {
      bundled = path;
      return path;
    }
  } catch {
    // fall through to the explanation below
  }
  throw new ClaudeExecutableNotFoundError(
    `Claude Code was not found: install ${pkg} (it comes with ${SDK_PACKAGE} when optional ` +
      `dependencies are installed: run \`npm install\` without --omit=optional), or set ` +
      `CLAUDE_CODE_EXECUTABLE to the path of a claude binary.`,
  );
}
