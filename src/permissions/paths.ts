import { isAbsolute, relative, resolve } from "node:path";

/** Absolute form of a tool's path argument, relative paths taken from the session cwd. */
export function absolutePath(path: string, cwd: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** True when `path` is `dir` or lies below it. */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The directory a path rule grants, for the absolute forms we can state exactly:
 * `//abs/dir/**` (Claude Code's absolute-path syntax) -> `/abs/dir`. Anything else
 * (relative forms, other globs) is not a grant we can describe, so undefined.
 */
export function ruleDirectory(ruleContent: string): string | undefined {
  const match = /^\/(\/[^*?[\]{}]*?)\/\*\*$/.exec(ruleContent);
  if (!match?.[1]) return undefined;
  return resolve(match[1]);
}
