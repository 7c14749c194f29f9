// What the stub agent (client-stub-agent.ts) sends that the client's tests check: shared here,
// since importing the stub itself would run an agent on the test's own stdin and stdout.

/** The label of the "ask" scenario's durable option: long enough to wrap. */
export const LONG_RULE =
  "Yes, and don't ask again for npm test and make lint commands and any cargo build, go vet, or yarn lint command (broader than this command) in this project and in every later session of it, until you say otherwise";

/** The length of each field the "huge" scenarios send: 10 MiB of text. */
export const HUGE = 10 * 1024 * 1024;
