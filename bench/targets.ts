/** A figure's target, and whether this run met it: printed in the Notes column next to the measured value. */
export function verdict(value: number, target: { max: number; label: string }): string {
  if (!Number.isFinite(value)) return `target ${target.label}: not measured`;
  return `target ${target.label}: ${value <= target.max ? 'met' : 'MISSED'}`;
}
