/**
 * A Copy button: its label turns to "Copied" for a moment once the text is on the clipboard; when the clipboard refused
 * it (a browser or window that does not allow pages to write to it), a line beside the button says so and how to copy
 * by hand, instead of nothing happening. Either is also said to a screen reader.
 */
import { Button, Text, type ButtonProps } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { componentsText } from './components-text';
import { useAnnouncer } from './live-announcer';

const t = componentsText.copy;
/** How long the button says "Copied". */
const COPIED_SHOWN_MS = 2000;

type Props = Pick<ButtonProps, 'size' | 'variant' | 'color'> & {
  value: string;
  /** What the button shows. */
  label: string;
  /** Its accessible name, when the label alone does not say what is copied ("Copy" beside each of several values). */
  ariaLabel?: string;
};

export function CopyButton({ value, label, ariaLabel, ...button }: Props) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const { announce, region } = useAnnouncer('polite');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = () => {
    clearTimeout(timer.current);
    // navigator.clipboard is missing where the page is not a secure context; writeText rejects where it is not allowed.
    const writing = navigator.clipboard ? navigator.clipboard.writeText(value) : Promise.reject(new Error('no clipboard'));
    writing.then(() => {
      setState('copied');
      announce(t.copied);
      timer.current = setTimeout(() => setState('idle'), COPIED_SHOWN_MS);
    }, () => {
      setState('failed');
      announce(t.notCopied);
    });
  };

  return (
    <>
      <Button {...button} onClick={copy} aria-label={ariaLabel}>
        {state === 'copied' ? t.copied : label}
      </Button>
      {state === 'failed' && <Text size="xs" c="var(--mantine-color-error)">{t.notCopied}</Text>}
      {region}
    </>
  );
}
