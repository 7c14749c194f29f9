import { readFileSync } from "node:fs";

interface PackageJson {
  name: string;
  version: string;
}

// package.json sits one level above both src/ and dist/.
const pkg = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as PackageJson;

export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
