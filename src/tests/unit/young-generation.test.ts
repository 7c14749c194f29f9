import { describe, expect, it } from "vitest";
import { YOUNG_GENERATION_FLAG, youngGenerationFlags } from "../../runtime/young-generation.js";

describe("the bin's young generation setting", () => {
  it("keeps the young generation at its starting size by default", () => {
    expect(youngGenerationFlags([], undefined)).toEqual([YOUNG_GENERATION_FLAG]);
    expect(youngGenerationFlags(["--enable-source-maps"], "--max-old-space-size=512")).toEqual([
      YOUNG_GENERATION_FLAG,
    ]);
  });

  it("leaves semispace settings given on node's command line alone", () => {
    expect(youngGenerationFlags(["--max-semi-space-size=4"], undefined)).toEqual([]);
    expect(youngGenerationFlags(["--semi-space-growth-factor=4"], undefined)).toEqual([]);
  });

  it("leaves semispace settings given in NODE_OPTIONS alone", () => {
    expect(youngGenerationFlags([], "--inspect --max_semi_space_size=8")).toEqual([]);
    expect(youngGenerationFlags([], "--min-semi-space-size=2")).toEqual([]);
  });
});
