import { optionalText } from "../content.js";
import { nonBlankField, numberField, stringField } from "../input.js";
import type { ToolFamily, ToolRenderer } from "../types.js";

/** WebFetch: "Fetch <url>" with the prompt as content; WebSearch: `Search "<query>"`. */
const render: ToolRenderer = (input, _context, name) => {
  if (name === "WebSearch") {
    const query = nonBlankField(input, "query");
    return {
      kind: "fetch",
      title: query ? `Search "${query}"` : "Web search",
      content: [],
      locations: [],
    };
  }
  const url = nonBlankField(input, "url");
  const offset = numberField(input, "offset");
  return {
    kind: "fetch",
    title: url ? `Fetch ${url}${offset ? ` (from char ${offset})` : ""}` : "Fetch",
    content: optionalText(stringField(input, "prompt")),
    locations: [],
  };
};

/** The fetched page's answer is the model's markdown: the default result shows it as is. */
export const webFamily: ToolFamily = { render };
