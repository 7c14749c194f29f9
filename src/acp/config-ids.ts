/** Config option ids, as clients see them on the wire; each is defined here once. */
export const CONFIG_IDS = {
  mode: "mode",
  model: "model",
  effort: "effort",
  fastMode: "fast_mode",
  ultracode: "ultracode",
  thinking: "thinking",
} as const;
