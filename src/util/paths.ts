// Whether a path is inside a session's folders, judged on real paths: a symlink inside a folder
// that points out of it is outside.
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";

/** `path` (absolute) through the real path of its nearest existing ancestor: a file not yet made keeps its name. */
export function canonicalPath(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync.native(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return path;
      rest.push(basename(at));
    }
  }
}

/** Whether the canonical `path` is strictly inside one of the canonical `roots` (not a root itself). */
export function isInside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const within = relative(root, path);
    return within !== "" && !within.startsWith("..") && !isAbsolute(within);
  });
}
