import { useCallback, useEffect, useState } from 'react';

/** What an `input` event says about the change (an InputEvent's fields; none of them on a plain `input` Event). */
export type TextInput = Partial<Pick<InputEvent, 'inputType' | 'data' | 'isComposing'>>;

/** The InputEvent fields of an `input` event, none for a plain Event. */
export const textInputOf = (event: Event): TextInput => ('inputType' in event ? (event as InputEvent) : {});

/** Ways of putting text in that insert a whole term, whatever its length. */
const WHOLE_TERM_INPUT_TYPES = new Set([
  'insertFromPaste',
  'insertFromPasteAsQuotation',
  'insertFromDrop',
  'insertFromYank',
  'insertReplacementText',
  'insertFromComposition',
]);

/**
 * Whether an `input` event put a complete term in the box: a paste, a drop, an autofill or a suggestion picked, or
 * several characters inserted in one event (a script's fill, a dictation). A key typed or deleted, or the text of an
 * input method still being composed, is not: more keys may follow. A plain `input` Event, which no key sends, is a
 * script's change.
 */
export function isWholeTerm(input: TextInput): boolean {
  if (input.isComposing) return false;
  if (input.inputType === undefined) return true;
  if (WHOLE_TERM_INPUT_TYPES.has(input.inputType)) return true;
  return (input.data?.length ?? 0) > 1;
}

/**
 * A search box's term: typing settles `delay` ms after the last key (SPEC §9: a word typed letter by letter asks
 * once); a whole term put in at once, Enter or an input method's commit settle at once, trimmed.
 */
export class SearchTerm {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private text = '';

  constructor(
    private readonly delay: number,
    private onSettle: (search: string) => void = () => undefined,
  ) {}

  /** What gets each settled search from now on (a page sets it as it draws, so it asks with the page's state). */
  settleWith(onSettle: (search: string) => void): void {
    this.onSettle = onSettle;
  }

  /** The box's text changed by `input`. */
  change(text: string, input: TextInput): void {
    this.text = text;
    if (isWholeTerm(input)) this.commit();
    else {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.commit(), this.delay);
    }
  }

  /** The text as it stands is the term (Enter; `text`: an input method's committed text). */
  commit(text = this.text): void {
    clearTimeout(this.timer);
    this.text = text;
    this.onSettle(text.trim());
  }

  /** Drops a pending settle (the box is gone). */
  cancel(): void {
    clearTimeout(this.timer);
  }
}

/**
 * File Search's box: the text shown and the search asked for (see SearchTerm). `ask` runs when a search settles,
 * before the page draws again, so its request leaves at that moment.
 */
export function useFileSearchText(delay: number, ask: (search: string) => void) {
  const [text, setText] = useState('');
  const [settled, setSettled] = useState('');
  const [term] = useState(() => new SearchTerm(delay));
  useEffect(() => {
    term.settleWith((search) => {
      ask(search);
      setSettled(search);
    });
  });
  useEffect(() => () => term.cancel(), [term]);
  const change = useCallback(
    (next: string, event: Event) => {
      setText(next);
      term.change(next, textInputOf(event));
    },
    [term],
  );
  const submit = useCallback(() => term.commit(), [term]);
  const compositionEnd = useCallback((committed: string) => term.commit(committed), [term]);
  return { text, settled, change, submit, compositionEnd };
}
