import { useQuery } from '@tanstack/react-query';
import { emailIsValidQuery, REGISTRATION_PROBE_EMAIL } from './email-is-valid';

/**
 * Whether the company lets people create their own account: true once the probe is answered
 * (a 403 says it is closed). Until then, and on any other failure, false: "Create an account"
 * is offered only where it works.
 */
export function useRegistrationOpen(): boolean {
  const probe = useQuery({ ...emailIsValidQuery(REGISTRATION_PROBE_EMAIL), staleTime: 5 * 60_000 });
  return probe.isSuccess;
}
