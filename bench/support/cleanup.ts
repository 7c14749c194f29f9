// Every process the bench starts is registered here, so an interrupted run (Ctrl-C, a
// thrown error) still ends them — by their own pid or process group, nothing broader.
const killers = new Set<() => void>();

export function track(kill: () => void): void {
  killers.add(kill);
}

export function untrack(kill: () => void): void {
  killers.delete(kill);
}

/** Kills a detached child's whole process group (it and the Claude Code processes it started). */
export function groupKiller(pid: number): () => void {
  return () => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // the group is already empty
    }
  };
}

export function killAll(): void {
  for (const kill of killers) kill();
  killers.clear();
}

let installed = false;

/** On SIGINT/SIGTERM and on exit, end what is still running. */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.once("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}
