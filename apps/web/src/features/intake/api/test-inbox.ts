import type { TImapTestBody } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

// "Test connection" on the inbox form: signs in to the IMAP inbox with the settings typed
// (the stored password of the source when none is typed) and opens its mailbox. Nothing is
// saved, so nothing is refreshed.

export function useTestInbox() {
  return useMutation({
    mutationFn: (body: TImapTestBody) => callApi(calls.intake.testIntakeInbox, { body }),
  });
}
