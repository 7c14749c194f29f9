// Where each caller is in the script. Positions are taken synchronously on arrival, so
// concurrent requests get distinct steps in arrival order.
import type { CursorScope, TurnSpec } from "./types.js";

export interface Take {
  /** Script index, or undefined when the script is exhausted (fallback reply). */
  step: number | undefined;
  spec: TurnSpec | undefined;
  /** Bumped by reset(), so default tool ids stay unique after setScenario. */
  generation: number;
}

interface Position {
  step: number;
  /** Times the turn at `step` was already served (faults may repeat). */
  served: number;
}

const SHARED = "*";

export class ScriptCursor {
  private turns: TurnSpec[] = [];
  private positions = new Map<string, Position>();
  private generation = 0;

  constructor(
    turns: TurnSpec[],
    private readonly scope: CursorScope,
  ) {
    this.turns = [...turns];
  }

  take(sessionId: string | undefined): Take {
    const key = this.scope === "session" ? (sessionId ?? SHARED) : SHARED;
    let pos = this.positions.get(key);
    if (!pos) {
      pos = { step: 0, served: 0 };
      this.positions.set(key, pos);
    }
    const spec = this.turns[pos.step];
    // Exhausted: do not advance, so turns enqueued later are still reached.
    if (spec === undefined)
      return { step: undefined, spec: undefined, generation: this.generation };
    const step = pos.step;
    pos.served += 1;
    if (pos.served >= repeatOf(spec)) {
      pos.step += 1;
      pos.served = 0;
    }
    return { step, spec, generation: this.generation };
  }

  enqueue(turns: TurnSpec[]): void {
    this.turns.push(...turns);
  }

  reset(turns: TurnSpec[]): void {
    this.turns = [...turns];
    this.positions.clear();
    this.generation += 1;
  }

  get length(): number {
    return this.turns.length;
  }
}

/** Literal turns may repeat a fault; a function turn is called once per request. */
function repeatOf(spec: TurnSpec): number {
  if (typeof spec === "function" || spec.fault === undefined) return 1;
  return Math.max(1, spec.fault.repeat ?? 1);
}
