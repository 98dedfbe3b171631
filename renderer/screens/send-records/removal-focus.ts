/**
 * Where the keyboard focus goes when a row is removed. The Remove button pressed leaves the page with its row, and the
 * browser would drop the focus to the start of the page; it goes instead to the same button of the row that takes the
 * removed one's place (the next row's, or the previous row's when the last one was removed), so the clerk keeps their
 * place and hears which row is there now. A form left with one row shows no Remove button: the focus goes to the Add
 * button then, the control that comes after the rows.
 */
import { useEffect, useRef } from 'react';

export function useRemovalFocus() {
  const removeButtons = useRef(new Map<number, HTMLButtonElement>());
  const addButton = useRef<HTMLButtonElement>(null);
  /** The row whose Remove button gets the focus once the form is on the page again without the removed row. */
  const target = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (target.current === undefined) return;
    (removeButtons.current.get(target.current) ?? addButton.current)?.focus();
    target.current = undefined;
  });

  return {
    /** The ref of row `index`'s Remove button. */
    removeButton: (index: number) => (element: HTMLButtonElement | null) => {
      if (!element) return undefined;
      const buttons = removeButtons.current;
      buttons.set(index, element);
      // A row that moves up is given a new index: the button goes from its old place before it takes the new one.
      return () => {
        if (buttons.get(index) === element) buttons.delete(index);
      };
    },
    /** The ref of the form's Add button. */
    addButton,
    /** Row `index` of `count` is being removed. */
    removing: (index: number, count: number) => {
      target.current = Math.min(index, count - 2);
    },
  };
}
