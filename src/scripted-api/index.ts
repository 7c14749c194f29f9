// Public API of the scripted Anthropic Messages API double.
export { startScriptedApi } from "./server.js";
export type { ScriptedApi } from "./server.js";
export {
  loadScenarioFile,
  parseScenario,
  scenarioJsonSchema,
  scriptTurnSchema,
} from "./scenario.js";
export { lastToolResults, lastUserText, systemText, toolResults } from "./recording.js";
export { classifyRequest, isPromptSuggestionRequest } from "./side-requests.js";
export { defaultSideReply } from "./side-reply.js";
export { rateLimitHeaders } from "./rate-limits.js";
export { turnToEvents, turnToMessage } from "./sse.js";
export type { SseEvent, RenderContext } from "./sse.js";
export type * from "./types.js";
export { ACCOUNT_HOST, startAccountApi } from "./account-api.js";
export type { AccountApi, AccountApiOptions, PlanWindow } from "./account-api.js";
