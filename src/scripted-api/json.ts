// Narrowing for parsed JSON bodies, which arrive as `unknown`.
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
