/**
 * The eye button of every secret field (Mantine's PasswordInput, set up in theme.ts). Mantine leaves it out of the Tab
 * order and names it "Toggle password visibility" whatever a press would do, so a clerk on the keyboard could not look
 * at a typed secret before saving it. The theme makes it reachable by Tab, and this icon gives it its name: what a
 * press does now, "Show secret" or "Hide secret" (the words, hidden from sight, name the button; its pressed state is
 * left out, since the name already says which way it is).
 */
import { VisuallyHidden } from '@mantine/core';
import { componentsText } from './components-text';

const t = componentsText.secret;
const STROKE = { fill: 'none', stroke: 'currentColor', strokeLinecap: 'round', strokeLinejoin: 'round', strokeWidth: 16 } as const;

export function SecretToggleIcon({ reveal }: { reveal: boolean }) {
  return (
    <>
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" aria-hidden="true"
        style={{ width: 'var(--psi-icon-size)', height: 'var(--psi-icon-size)' }}>
        {reveal ? (
          <>
            <path {...STROKE} d="M48 40l160 176M154.91 157.6a40 40 0 01-53.82-59.2M135.53 88.71a40 40 0 0132.3 35.53" />
            <path {...STROKE} d="M208.61 169.1C230.41 149.58 240 128 240 128s-32-72-112-72a126 126 0 00-20.68 1.68M74 68.6C33.23 89.24 16 128 16 128s32 72 112 72a118.05 118.05 0 0054-12.6" />
          </>
        ) : (
          <>
            <path {...STROKE} d="M128 56c-80 0-112 72-112 72s32 72 112 72 112-72 112-72-32-72-112-72z" />
            <circle {...STROKE} cx="128" cy="128" r="40" />
          </>
        )}
      </svg>
      <VisuallyHidden>{reveal ? t.hide : t.show}</VisuallyHidden>
    </>
  );
}
