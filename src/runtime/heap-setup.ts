// Imported first by the bin, so the setting is in place before the SDKs load.
import { setFlagsFromString } from "node:v8";
import { youngGenerationFlags } from "./young-generation.js";

for (const flag of youngGenerationFlags(process.execArgv, process.env.NODE_OPTIONS)) {
  setFlagsFromString(flag);
}
