// The sign-in form's check: the contract's ZLoginBody, loaded after the page shows (the
// sign-in page is in the first load, which stays free of zod).
import { ZLoginBody } from '@quire/contract';
import { type FieldErrors, fieldErrorsFrom } from '../../../lib/field-errors';
import type { LoginInput } from '../api/login';

type LoginField = keyof LoginInput & string;

export function checkLogin(
  typed: LoginInput,
): { ok: true; values: LoginInput } | { ok: false; errors: FieldErrors<LoginField> } {
  const parsed = ZLoginBody.safeParse(typed);
  if (parsed.success) return { ok: true, values: parsed.data as LoginInput };
  return { ok: false, errors: fieldErrorsFrom<LoginField>(parsed.error.issues) };
}
