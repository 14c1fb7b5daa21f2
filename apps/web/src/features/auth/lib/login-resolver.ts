// The sign-in form's validation: the contract's ZLoginBody, loaded after the page shows (the
// sign-in page is in the first load, which stays free of zod).
import { zodResolver } from '@hookform/resolvers/zod';
import { ZLoginBody } from '@quire/contract';

export const loginResolver = zodResolver(ZLoginBody);
