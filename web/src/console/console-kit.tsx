/** The console's small building blocks: navigation, loading data, headings that take focus, notices, dialogs. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiProblem } from './console-api.ts';
import { t } from './console-i18n.ts';

type Listener = (path: string) => void;
const listeners = new Set<Listener>();

/** Goes to a console path without reloading the page (the history entry keeps Back working). */
export function navigate(path: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  for (const listener of listeners) listener(path);
}

export function usePath(): string {
  const [path, setPath] = useState(window.location.pathname + window.location.search);
  useEffect(() => {
    const update = () => { setPath(window.location.pathname + window.location.search); };
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => { listeners.delete(update); window.removeEventListener('popstate', update); };
  }, []);
  return path;
}

/** A link inside the console: a real link (open in a new tab works), followed in place on a plain click. */
export function Link(props: { href: string; class?: string; children: ComponentChildren; 'aria-current'?: 'page' | undefined }) {
  const follow = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.href);
  };
  return <a href={props.href} class={props.class} aria-current={props['aria-current']} onClick={follow}>{props.children}</a>;
}

export interface Loaded<T> { data: T | null; error: unknown; loading: boolean; reload: () => void }

/** Runs `load` now and whenever `keys` change; a newer run wins over an older one still under way. */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({ data: null, error: null, loading: true });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    load().then((data) => { if (run === latest.current) setState({ data, error: null, loading: false }); },
      (error: unknown) => { if (run === latest.current) setState({ data: null, error, loading: false }); });
  }, [...keys, round]);
  const reload = useCallback(() => { setRound((r) => r + 1); }, []);
  return { ...state, reload };
}

/** The page load keeps the browser's own focus order (the skip link first); later screens focus their heading. */
let firstScreen = true;

/** The screen's title: the document's title too, and focused when another screen opens (screen readers hear where they are). */
export function Heading(props: { children: string; eyebrow?: string | undefined }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.children} · ${t('app.name')}`;
    if (firstScreen) firstScreen = false;
    else ref.current?.focus({ preventScroll: true });
  }, [props.children]);
  return (
    <div class="page-heading">
      {props.eyebrow ? <p class="eyebrow">{props.eyebrow}</p> : null}
      <h1 tabIndex={-1} ref={ref}>{props.children}</h1>
    </div>
  );
}

/** What went wrong, in the console's words, with the API's own message as detail. */
export function describeProblem(error: unknown): string {
  if (error instanceof ApiProblem) {
    if (error.status === 403) return t('problem.forbidden');
    if (error.status === 404) return t('problem.notFound');
    if (error.status === 409) return t('problem.conflict', { message: error.message });
    if (error.status === 400) return t('problem.invalid', { message: error.message });
    return t('problem.other', { message: error.message });
  }
  return t('problem.network');
}

export function Problem(props: { error: unknown }) {
  if (!props.error) return null;
  return <div class="notice notice-error" role="alert"><p>{describeProblem(props.error)}</p></div>;
}

/** What an action achieved: a live region that is always there, so a screen reader hears the message appear. */
export function Done(props: { message: string | null; tone?: 'success' | 'info' }) {
  return <div role="status">{props.message ? <p class={`notice notice-${props.tone ?? 'success'}`}>{props.message}</p> : null}</div>;
}

export function Loading() {
  return <p class="loading"><span class="spinner" aria-hidden="true" /> {t('common.loading')}</p>;
}

export function Status(props: { status: string; label: string }) {
  return <span class={`status status-${props.status}`}>{props.label}</span>;
}

/**
 * A native modal dialog (focus is trapped and Escape closes it, by the browser): opened while `open` holds, its
 * confirm button runs `onConfirm`.
 */
export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; confirm: string; danger?: boolean; busy?: boolean; onConfirm: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  // A screen may hold more than one dialog: each needs its own title id
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const submit = (event: Event) => { event.preventDefault(); props.onConfirm(); };
  return (
    <dialog ref={ref} class="console-dialog" aria-labelledby={titleId} onClose={props.onClose}>
      <form onSubmit={submit} class="stack">
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <div class="actions">
          <button type="submit" class={`button ${props.danger ? 'button-danger' : 'button-primary'}`} disabled={props.busy}>{props.confirm}</button>
          <button type="button" class="button button-secondary" onClick={props.onClose}>{t('common.cancel')}</button>
        </div>
      </form>
    </dialog>
  );
}

/** Runs an action, keeping its busy flag, its error and a success message for the live region. */
export function useAction(): { busy: boolean; error: unknown; done: string | null; run: (action: () => Promise<string | null>) => Promise<boolean> } {
  const [state, setState] = useState<{ busy: boolean; error: unknown; done: string | null }>({ busy: false, error: null, done: null });
  const run = useCallback(async (action: () => Promise<string | null>) => {
    setState({ busy: true, error: null, done: null });
    try {
      const done = await action();
      setState({ busy: false, error: null, done });
      return true;
    } catch (error) {
      setState({ busy: false, error, done: null });
      return false;
    }
  }, []);
  return { ...state, run };
}

/** A labelled one-line text or email field, its value kept by the caller. */
export function TextField(props: {
  id: string; label: string; value: string; onValue: (value: string) => void; type?: 'text' | 'email'; required?: boolean; maxLength?: number; placeholder?: string;
}) {
  const input = { id: props.id, required: props.required, maxLength: props.maxLength, placeholder: props.placeholder, value: props.value, onInput: (e: Event) => { props.onValue((e.currentTarget as HTMLInputElement).value); } };
  return (
    <div class="form-row">
      <label for={props.id}>{props.label}</label>
      {props.type === 'email' ? <input type="email" {...input} /> : <input type="text" {...input} />}
    </div>
  );
}
