import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ClaudeExecutableNotFoundError } from "../errors.js";
import { installedSdk, SDK_PACKAGE } from "./sdk-bundle.js";

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

/**
 * The binary of the platform package installed. On Linux, where npm installed only one of
 * glibc's and musl's (it installs by libc), that one: no need to ask which libc this is.
 */
export function installedBinary(
  binaryOf: (pkg: string) => string | undefined,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
  musl: () => boolean = isMusl,
): string | undefined {
  const glibc = binaryOf(platformPackageName(platform, arch, false));
  if (platform !== "linux") return glibc;
  const muslBinary = binaryOf(platformPackageName(platform, arch, true));
  if (glibc && muslBinary) return musl() ? muslBinary : glibc;
  return glibc ?? muslBinary;
}

/** Asked once: `process.report` is slow (tens of ms). */
function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  if (musl === undefined) {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
    musl = !report?.header?.glibcVersionRuntime;
  }
  return musl;
}

/** Resolves from where the SDK is installed (its platform packages sit beside it). */
function sdkRequire(): NodeJS.Require | undefined {
  try {
    return createRequire(installedSdk().entry);
  } catch {
    return undefined;
  }
}

function packageBinary(fromSdk: NodeJS.Require, pkg: string): string | undefined {
  const binary = process.platform === "win32" ? "claude.exe" : "claude";
  try {
    const path = join(dirname(fromSdk.resolve(`${pkg}/package.json`)), binary);
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
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
  const fromSdk = sdkRequire();
  const found = fromSdk && installedBinary((pkg) => packageBinary(fromSdk, pkg));
  if (found) {
    bundled = found;
    return found;
  }
  const pkg = platformPackageName();
  throw new ClaudeExecutableNotFoundError(
    `Claude Code was not found: install ${pkg} (it comes with ${SDK_PACKAGE} when optional ` +
      `dependencies are installed: run \`npm install\` without --omit=optional), or set ` +
      `CLAUDE_CODE_EXECUTABLE to the path of a claude binary.`,
  );
}
