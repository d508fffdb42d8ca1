// Counting a field's characters, and the colour its counter takes (spec §5).

export type Tone = 'normal' | 'warn' | 'over';

/** A counter's colour: orange above `warnAbove`, red above `overAbove` (spec §5). */
export function counterTone(length: number, warnAbove: number, overAbove?: number): Tone {
  if (overAbove !== undefined && length > overAbove) return 'over';
  return length > warnAbove ? 'warn' : 'normal';
}

/** Characters as a reader counts them (an emoji is one, as the server counts). */
export function length(text: string): number {
  return [...text].length;
}
