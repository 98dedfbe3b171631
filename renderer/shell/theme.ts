/** The look: Mantine's theme with colours dark enough for WCAG AA contrast (4.5:1) in both schemes. */
import { createTheme, darken, type CSSVariablesResolver } from '@mantine/core';
import { BusyAwareButton } from '../components/busy-button';
import { SecretToggleIcon } from '../components/secret-toggle';

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 6 (Mantine's default) puts white text on a blue too light for 4.5:1.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Ubuntu, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Ubuntu, sans-serif' },
  components: {
    // Mantine draws the title bar of a drawer or a dialog as a <header>. Inside its <section role="dialog"> that is
    // still a banner landmark to assistive technology (the section's role is not a sectioning one), so an open drawer
    // gave the page a second banner beside the app's own header (axe: landmark-no-duplicate-banner,
    // landmark-unique). The dialog is already named by its title: its bar is a plain box.
    DrawerHeader: { defaultProps: { component: 'div' } },
    ModalHeader: { defaultProps: { component: 'div' } },
    // A Button with `loading` is drawn disabled by Mantine, and a focused button that becomes disabled loses the
    // keyboard focus to the page. Every Button is drawn by BusyAwareButton instead, which stays focusable while busy
    // (aria-busy, aria-disabled, a press ignored); `component="a"` and the like still choose their own element.
    Button: { defaultProps: { component: BusyAwareButton } },
    // A secret field's eye button is reached by Tab and named by its icon after what a press does now ("Show secret",
    // "Hide secret"): Mantine's tabindex -1, fixed name and pressed state are left out (secret-toggle.tsx).
    PasswordInput: {
      defaultProps: {
        visibilityToggleFocusable: true,
        visibilityToggleIcon: SecretToggleIcon,
        visibilityToggleButtonProps: { 'aria-label': undefined, 'aria-pressed': undefined },
      },
    },
  },
});

/** Colours the screens use for states (badges, alerts, subtle buttons). */
const STATE_COLORS = ['green', 'yellow', 'red', 'blue', 'gray', 'orange', 'teal'] as const;

/**
 * Mantine's "dimmed" grey and its light-variant text (shade 9 on shade 1) fall below 4.5:1 in the light scheme for
 * green, yellow and orange; the text of light badges and alerts is darkened until it reads.
 *
 * Its error red (field errors, `c="red"` text) is too light as well: red 6 on white is 3.3:1, red 8 on the dark
 * background 3.4:1. Errors get a red that reaches 4.5:1 on the page, an input, a striped row and the red alert's own
 * background: red 9 darkened by a tenth in the light scheme (5.3:1 on the alert, 6.4:1 on white), red 4 in the dark
 * one (4.8:1 on the darkest of them). theme.test.ts checks every pair.
 *
 * A subtle red button (Remove, in a list of rows; Remove profile) has no background: its text, Mantine's red light-variant
 * colour, is all that says it takes something away. Mantine makes that colour red 0 in the dark scheme, a white with a
 * hint of pink, so the button read as white. In the dark scheme it is the error red there, red 4, which also reaches
 * 4.5:1 on the red alert, whose title takes the same colour.
 *
 * A switch that is off shows Mantine's pale track (gray 3 on white, 1.3:1; dark 5 on the dark page, 1.4:1): the
 * control and which way it is set hardly show. `--app-switch-track-off` (used in app.css) reaches 3:1 against the
 * page and the white thumb (WCAG 1.4.11): gray 6 in the light scheme, dark 2 in the dark one.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const errorRed = darken(resolved.colors.red[9], 0.1);
  return {
    variables: {},
    light: {
      '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
      ...Object.fromEntries(STATE_COLORS.map((c) => [`--mantine-color-${c}-light-color`, darken(resolved.colors[c][9], 0.45)])),
      '--mantine-color-error': errorRed,
      '--mantine-color-red-text': errorRed,
      '--app-switch-track-off': 'var(--mantine-color-gray-6)',
    },
    dark: {
      '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
      '--mantine-color-error': 'var(--mantine-color-red-4)',
      '--mantine-color-red-light-color': 'var(--mantine-color-red-4)',
      '--app-switch-track-off': 'var(--mantine-color-dark-2)',
    },
  };
};
