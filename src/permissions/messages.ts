/** What Claude is told when a permission ask ends without approval (Claude Code's wording). */
export const TOOL_USE_ABORTED = "Tool use aborted";

const REJECTED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";

/** The default refusal message of a selected reject. */
export const USER_REJECTED = `${REJECTED} STOP what you are doing and wait for the user to tell you how to proceed.`;

/** A reject that carries the user's feedback. */
export function userRejectedWithFeedback(feedback: string): string {
  return `${REJECTED} To tell you how to proceed, the user said:\n${feedback}`;
}

/** The answer was not one of the options of that request: nothing runs. */
export const UNKNOWN_OPTION =
  "The permission answer did not match any option offered; the tool use was not allowed.";

/** The client failed the request (not a cancellation). */
export const CLIENT_FAILED =
  "The permission request could not be shown to the user; the tool use was not allowed.";
