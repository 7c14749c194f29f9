/** Resolves after the microtasks queued so far (and the handlers they start) have run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
