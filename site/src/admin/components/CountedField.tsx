// A text field with a live counter ("120/300") at its label's right, coloured as the spec
// says (orange near the limit, red over the recommended length), and said to screen
// readers politely once typing pauses rather than on every key.
import { type Tone, counterTone, length } from './count';
import { TextField } from './Field';
import { useAnnouncement } from './useAnnouncement';

/** A field's limits (editor/allowlist.json): the most it takes, where the counter turns
 *  orange and, when there is one, the recommended length beyond which it turns red. */
export interface FieldLimit {
  max: number;
  warnAbove: number;
  recommended?: number;
}

interface Props {
  /** The control's id; the counter's is `${id}-count`, which the control is described by. */
  id: string;
  label: string;
  value: string;
  limit: FieldLimit;
  placeholder: string;
  /** A text area of this many rows; without it, a one-line input. */
  rows?: number;
  onChange: (value: string) => void;
}

export function CountedField({ id, label, limit, ...rest }: Props) {
  const count = length(rest.value);
  const counter = (
    <Counter id={`${id}-count`} label={label} count={count} of={limit.recommended ?? limit.max} tone={counterTone(count, limit.warnAbove, limit.recommended)} />
  );
  return <TextField id={id} label={label} maxLength={limit.max} describedBy={`${id}-count`} counter={counter} {...rest} />;
}

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

interface CounterProps {
  /** The id the field's aria-describedby points at. */
  id: string;
  /** The field's name, for the announcement ("Excerpt"). */
  label: string;
  count: number;
  /** The number shown after the slash. */
  of: number;
  tone: Tone;
}

function Counter({ id, label, count, of, tone }: CounterProps) {
  const announcement = useAnnouncement(`${label}: ${count} of ${of} characters${TONE_WORDS[tone]}`);
  return (
    <>
      <span id={id} data-tone={tone} className={`text-sm tabular-nums ${TONE_CLASS[tone]}`}>
        {count}/{of}
      </span>
      <span role="status" className="sr-only">
        {announcement}
      </span>
    </>
  );
}
