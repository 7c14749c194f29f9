import { readFileSync } from "node:fs";

interface PackageJson {
  name: string;
  version: string;
}

/**
 * The nearest package.json above this module: it sits one level above src/ and dist/, and
 * two above the bin's chunks (dist/bin/), where this module may be bundled.
 */
function ownPackage(): PackageJson {
  for (const path of ["../package.json", "../../package.json"]) {
    try {
      return JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as PackageJson;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new Error("claude-agent-acp: its package.json is missing");
}

const pkg = ownPackage();

export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
