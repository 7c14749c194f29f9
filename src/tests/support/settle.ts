/** A short real pause, in which what the agent does next (its timers, immediates, I/O) happens. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30));
