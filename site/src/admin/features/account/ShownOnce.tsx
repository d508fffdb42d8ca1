// Secrets the server shows once (recovery codes, a new service token): a heading that takes
// the focus as the step appears, the secret, a way to copy or download it, and the button
// that says it is kept, after which it is gone from the page.
import { type ReactNode, useEffect, useRef } from 'react';
import { toast } from '../../../lib/toast';

/** Focuses the element (a step's heading, with tabIndex -1) as it appears. A task later:
 *  a dialog that closed in the same render (the form that made the secret) gives the focus
 *  back to its button a task later too, and this must come after it. */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const timer = setTimeout(() => ref.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);
  return ref;
}

async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: `The ${what} ${what.endsWith('s') ? 'are' : 'is'} on your clipboard.` });
  } catch {
    toast({ variant: 'destructive', title: 'Could not copy', description: 'Select the text and copy it yourself, or download it.' });
  }
}

function download(text: string, name: string): void {
  const href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

interface Props {
  title: string;
  intro: ReactNode;
  /** What is copied and downloaded. */
  text: string;
  /** "recovery codes", "token": for the copy's toast. */
  what: string;
  fileName: string;
  done: string;
  onDone: () => void;
  children: ReactNode;
}

export function ShownOnce({ title, intro, text, what, fileName, done, onDone, children }: Props) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="mt-4 rounded-lg border border-gold bg-gold/10 p-4">
      <h3 ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink focus:outline-none">
        {title}
      </h3>
      <p className="mt-1 text-sm text-slate-700">{intro}</p>
      {children}
      <div className="mt-4 flex flex-wrap gap-3">
        <button type="button" className="btn btn-outline" onClick={() => copy(text, what)}>
          Copy
        </button>
        <button type="button" className="btn btn-outline" onClick={() => download(text, fileName)}>
          Download
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {done}
        </button>
      </div>
    </div>
  );
}

/** Ten recovery codes, shown once. */
export function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <ShownOnce
      title="Your recovery codes"
      intro="Each code works once, in place of a code from your app or a passkey, if you lose them. Keep them somewhere safe: they are shown only now."
      text={`${codes.join('\n')}\n`}
      what="recovery codes"
      fileName="recovery-codes.txt"
      done="I've saved these"
      onDone={onSaved}
    >
      <ol aria-label="Recovery codes" className="mt-3 grid grid-cols-2 gap-2 font-mono text-ink">
        {codes.map((c) => (
          <li key={c} className="rounded bg-white px-2 py-1">
            {c}
          </li>
        ))}
      </ol>
    </ShownOnce>
  );
}
