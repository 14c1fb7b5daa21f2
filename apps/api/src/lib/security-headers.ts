import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers of every answer (helmet's, with Quire's content security policy),
 * worked out once. @fastify/helmet builds helmet's middleware again on every request, CSP
 * parsing included; these headers never depend on the request, so they are computed by
 * running helmet once against a stand-in response and then set as they are.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

export const QUIRE_CSP: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // 'sha256-…': index.html's one inline script, which sets the colour theme before the first
      // paint (security-headers.test.ts fails when the script and this hash part ways).
      scriptSrc: ["'self'", "'sha256-sMWDiVxJz+luR2EKDyBVtaYiTAlqcsZKpzbBx4i0MIE='"],
      objectSrc: ["'none'"],
      frameAncestors: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
};
