import { nonBlankField } from "../input.js";
import type { ToolFamily, ToolRenderer } from "../types.js";

/** Skill: "Load skill: <name>"; its arguments stay in rawInput. */
const render: ToolRenderer = (input) => {
  const skill = nonBlankField(input, "skill");
  return {
    kind: "other",
    title: skill ? `Load skill: ${skill}` : "Skill",
    content: [],
    locations: [],
  };
};

export const skillFamily: ToolFamily = { render };
