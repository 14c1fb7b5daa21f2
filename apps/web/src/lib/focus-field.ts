// Kept apart from lib/form.ts, which loads react-hook-form: the sign-in page focuses its
// fields with this alone and stays within its first-load budget (build/budget.ts).

/**
 * Focuses the control named `field` (react-hook-form focuses only the fields registered with
 * it; a controlled widget such as a picker is found by its name).
 */
export function focusField(field: string): void {
  queueMicrotask(() => {
    const target = document.getElementsByName(field)[0];
    if (target && !target.contains(document.activeElement)) target.focus();
  });
}
