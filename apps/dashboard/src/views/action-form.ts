import { h } from 'preact';
import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorBox } from './issues';

/** A form whose submit runs one API action and shows its result or refusal inline. */
export function ActionForm(props: {
  id: string;
  title: string;
  submit: string;
  run: () => Promise<string>;
  children?: ComponentChildren;
}): JSX.Element {
  const [error, setError] = useState<unknown>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const onSubmit = (e: Event): void => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setNote(undefined);
    props
      .run()
      .then(setNote, setError)
      .finally(() => setBusy(false));
  };
  return h(
    'form',
    { class: 'action', id: props.id, onSubmit },
    h('h3', {}, props.title),
    props.children,
    h('button', { type: 'submit', disabled: busy }, props.submit),
    h(ErrorBox, { error }),
    note === undefined ? null : h('p', { class: 'ok', role: 'status' }, note),
  );
}

/** A labelled text input bound to a state setter. */
export function Field(props: {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  multiline?: boolean;
  list?: string;
}): JSX.Element {
  const onInput = (e: Event): void => props.onInput((e.target as HTMLInputElement).value);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: props.id }, props.label),
    props.multiline === true
      ? h('textarea', { id: props.id, rows: 3, value: props.value, onInput })
      : h('input', { id: props.id, type: 'text', autocomplete: 'off', value: props.value, list: props.list, onInput }),
  );
}
