/**
 * Figures in a flag's evidence (shares, scores, feature values) keep 4 significant digits: the
 * digits beyond are noise of the estimate, and every stored flag row keeps them as text (issue 25:
 * bytes per stored document). Rounded where the flag is made, so that a flag printed during a run
 * and the same flag read back from a store are equal. Decisions use the unrounded values.
 */
export function evidenceFigure(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(4)) : value;
}
