// A field's live counter ("120/300"), coloured as the spec says, and said to screen
// readers politely once typing pauses rather than on every key.
import { useState } from 'react';
import type { Tone } from './form';
import { useDebounced } from '../../components/useDebounced';

/** How long typing must pause before the count is announced. */
export const ANNOUNCE_AFTER_MS = 1000;

const TONE_CLASS: Record<Tone, string> = {
  normal: 'text-slate-700',
  warn: 'text-orange-700 font-semibold',
  over: 'text-red-700 font-semibold',
};

const TONE_WORDS: Record<Tone, string> = {
  normal: '',
  warn: ', near the limit',
  over: ', over the recommended length',
};

interface Props {
  /** The id the field's aria-describedby points at. */
  id: string;
  /** The field's name, for the announcement ("Excerpt"). */
  label: string;
  count: number;
  /** The number shown after the slash. */
  of: number;
  tone: Tone;
}

export function Counter({ id, label, count, of, tone }: Props) {
  const text = `${label}: ${count} of ${of} characters${TONE_WORDS[tone]}`;
  const settled = useDebounced(text, ANNOUNCE_AFTER_MS);
  // Nothing to say until the count changes: a page load is not news.
  const [initial] = useState(text);
  return (
    <>
      <span id={id} data-tone={tone} className={`text-sm tabular-nums ${TONE_CLASS[tone]}`}>
        {count}/{of}
      </span>
      <span role="status" className="sr-only">
        {settled === initial ? '' : settled}
      </span>
    </>
  );
}
