/** The value the engine sends for an input not yet known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True for a preview-time unknown, anywhere inside a value. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}
