// "Schedule…" (or "Reschedule…") beside Publish: a date and time where the party is, named
// with its zone, so staff in another zone still schedule the party's 9:30. The server
// refuses a time already past (more than two minutes) and the dialog shows its reason.
import { useId, useState } from 'react';
import { FormDialog } from '../../components/FormDialog';
import { Field } from '../../components/Field';
import { localInputValue } from './schedule';

interface Props {
  /** The post's time when it is already scheduled. */
  scheduledFor: string | null;
  zone: string;
  /** Saves unsaved edits, then schedules for `local` (a date and time in `zone`). */
  onSchedule: (local: string) => Promise<void>;
}

/** An hour from now, as a first suggestion. */
const SUGGEST_AHEAD_MS = 60 * 60_000;

export function ScheduleDialog({ scheduledFor, zone, onSchedule }: Props) {
  const id = useId();
  const [value, setValue] = useState<string | null>(null);
  const shown = value ?? '';
  // Filled when the dialog opens (not while rendering): the post's time, or an hour on.
  const fill = () => setValue(localInputValue(scheduledFor ?? Date.now() + SUGGEST_AHEAD_MS, zone));
  return (
    <FormDialog
      trigger={scheduledFor ? 'Reschedule…' : 'Schedule…'}
      title={scheduledFor ? 'Reschedule blog post' : 'Schedule blog post'}
      description="The post goes live by itself at this time. Until then it stays a draft that only staff see; unsaved changes are saved first."
      submit="Schedule"
      pending="Scheduling..."
      tone="primary"
      ready={shown !== ''}
      failure="Failed to schedule blog"
      onSubmit={() => onSchedule(shown)}
      onOpened={fill}
      onClosed={() => setValue(null)}
    >
      {(problem) => (
        <Field label={`Goes live on (${zone})`} htmlFor={`${id}-at`}>
          <input
            id={`${id}-at`}
            type="datetime-local"
            className="field-input"
            value={shown}
            aria-invalid={problem.invalid}
            aria-describedby={problem.describedBy}
            onChange={(e) => setValue(e.target.value)}
          />
        </Field>
      )}
    </FormDialog>
  );
}
