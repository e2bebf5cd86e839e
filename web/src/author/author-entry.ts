/** A text or number box of the side panel that keeps what is being typed while the editor draws again. */
import { h, type InputHTMLAttributes, type JSX } from 'preact';
import { useState } from 'preact/hooks';

type Props = Omit<InputHTMLAttributes, 'value' | 'onChange' | 'onInput'> & { value: string; onCommit: (value: string) => void };

/**
 * The saved value, except while the person types: a save finishing meanwhile draws the panel again and would put the
 * saved value back. The typed value is committed on change (Enter, or leaving the box); a refused one goes back.
 */
export function Entry({ value, onCommit, ...rest }: Props): JSX.Element {
  const [draft, setDraft] = useState<string | null>(null);
  const typed = (event: Event) => (event.target as HTMLInputElement).value;
  return h('input', {
    ...rest,
    value: draft ?? value,
    onInput: (event: Event) => { setDraft(typed(event)); },
    onChange: (event: Event) => { setDraft(null); onCommit(typed(event)); },
    onBlur: () => { setDraft(null); },
  });
}
