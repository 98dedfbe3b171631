/**
 * The three steps of the set-up above its form, as Mantine's Stepper draws them, told to a screen reader as a list:
 * "Set-up steps, list of 3 items", each read as "Step 1 of 3: Environment, done. Where files go", the open one marked
 * as the current step. The Stepper alone gives a row of unnamed boxes whose words run together
 * ("EnvironmentWhere files go") and says nothing of which step is open; its numbers and ticks are pictures here, the
 * words say the same. Going back is done with the steps' Back buttons, so the steps are not buttons themselves.
 */
import { Stepper, VisuallyHidden } from '@mantine/core';
import { firstRunText as t } from './first-run-text';

const STEPS = [t.steps.environment, t.steps.credentials, t.steps.folder];

export function SetupSteps({ active }: { active: number }) {
  return (
    <Stepper active={active} size="sm" allowNextStepsSelect={false}
      attributes={{ steps: { role: 'list', 'aria-label': t.stepsLabel }, separator: { 'aria-hidden': true }, stepIcon: { 'aria-hidden': true } }}>
      {STEPS.map((step, index) => (
        <Stepper.Step key={step.label} component="li" aria-current={index === active ? 'step' : undefined}
          label={(
            <>
              <VisuallyHidden>{t.stepNumber(index + 1, STEPS.length)}</VisuallyHidden>
              {step.label}
              <VisuallyHidden>{`${index < active ? t.stepDone : ''}. `}</VisuallyHidden>
            </>
          )}
          description={step.description} />
      ))}
    </Stepper>
  );
}
