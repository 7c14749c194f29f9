// The bench's result model and its one table (Markdown, so the lead can paste it).
import type { Summary } from "./stats.js";

export type Percentile = "p50" | "p95" | "p99";

export interface Row {
  /** e.g. "Turn overhead". */
  figure: string;
  /** What exactly is measured, e.g. "prompt → end of turn (3 permissions)". */
  metric: string;
  unit: "ms" | "µs" | "deltas/s" | "MB";
  agent?: Summary | number;
  /** The direct-SDK figure measured in the same run, when there is one. */
  baseline?: Summary | number;
  /** Which percentiles to print (default p50 and p95). */
  show?: Percentile[];
  /** agent / baseline, as the target states it. */
  ratio?: number;
  target?: string;
  /** Undefined when the row has no target. */
  met?: boolean;
  note?: string;
}

export interface SuiteResult {
  suite: string;
  rows: Row[];
  notes: string[];
  durationMs: number;
  /** Raw samples and extra detail, for the JSON only. */
  detail?: Record<string, unknown>;
}

export interface Report {
  startedAt: string;
  durationMs: number;
  machine: Record<string, string | number>;
  options: { quick: boolean; memoryLive: boolean; only: string[] };
  suites: SuiteResult[];
}

function digits(value: number): string {
  if (!Number.isFinite(value)) return "—";
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

function cell(value: Summary | number | undefined, unit: string, show: Percentile[]): string {
  if (value === undefined) return "—";
  if (typeof value === "number") return `${digits(value)} ${unit}`;
  const parts = show.map((p) => `${p} ${digits(value[p])}`);
  return `${parts.join(" · ")} ${unit} (n=${value.n})`;
}

export function formatTable(report: Report): string {
  const header = ["Figure", "Measure", "Agent", "Direct SDK", "Ratio", "Target", "Met"];
  const lines = [
    `| ${header.join(" | ")} |`,
    `| ${header.map((h) => (h === "Ratio" || h === "Met" ? "---:" : "---")).join(" | ")} |`,
  ];
  for (const suite of report.suites) {
    for (const row of suite.rows) {
      const show = row.show ?? ["p50", "p95"];
      const met = row.met === undefined ? "" : row.met ? "yes" : "**no**";
      const metric = row.note ? `${row.metric} (${row.note})` : row.metric;
      lines.push(
        `| ${[
          row.figure,
          metric,
          cell(row.agent, row.unit, show),
          cell(row.baseline, row.unit, show),
          row.ratio === undefined ? "" : row.ratio.toFixed(3),
          row.target ?? "",
          met,
        ].join(" | ")} |`,
      );
    }
  }
  const notes = report.suites.flatMap((s) => s.notes.map((n) => `- ${n}`));
  const machine = Object.entries(report.machine)
    .map(([k, v]) => `${k}: ${v}`)
    .join("; ");
  return [
    lines.join("\n"),
    "",
    `Run ${report.startedAt}, ${(report.durationMs / 1000).toFixed(0)} s` +
      `${report.options.quick ? " (--quick)" : ""}. ${machine}.`,
    ...(notes.length ? ["", ...notes] : []),
  ].join("\n");
}
