import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface PackageJson {
  name: string;
  version: string;
}

/**
 * The nearest package.json above this module: it sits one level above src/ and dist/, and
 * two above the bin's chunks (dist/bin/), where this module may be bundled.
 */
function ownPackage(): PackageJson & { root: string } {
  for (const path of ["../package.json", "../../package.json"]) {
    const url = new URL(path, import.meta.url);
    try {
      const found = JSON.parse(readFileSync(url, "utf8")) as PackageJson;
      return { ...found, root: fileURLToPath(new URL(".", url)) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new Error("claude-agent-acp: its package.json is missing");
}

const pkg = ownPackage();

export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
/** The package's own directory (where package.json and dist/ are). */
export const PACKAGE_ROOT = pkg.root;
