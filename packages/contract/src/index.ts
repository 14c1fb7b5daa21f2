import { auditContract } from './audit.js';
import { authContract } from './auth.js';
import { dashboardAndSearchContract } from './dashboard-and-search.js';
import { emailContract } from './email.js';
import { groupContract } from './group.js';
import type { EndpointDef } from './http.js';
import { userContract } from './user.js';

export * from './access.js';
export * from './audit.js';
export * from './auth.js';
export * from './common.js';
export * from './dashboard-and-search.js';
export * from './email.js';
export * from './group.js';
export * from './http.js';
export * from './messages.js';
export * from './password-policy.js';
export * from './user.js';

/** Every call of the product, by area. The key `area.name` is the operationId. */
export const contract = {
  auth: authContract,
  email: emailContract,
  user: userContract,
  group: groupContract,
  dashboardAndSearch: dashboardAndSearchContract,
  audit: auditContract,
} satisfies Record<string, Record<string, EndpointDef>>;

export type Contract = typeof contract;

/** Every entry with its operationId, for the router, OpenAPI and the coverage test. */
export function allEndpoints(): Array<{ operationId: string; area: string; def: EndpointDef }> {
  return Object.entries(contract).flatMap(([area, entries]) =>
    Object.entries(entries).map(([name, def]) => ({
      operationId: `${area}.${name}`,
      area,
      def: def as EndpointDef,
    })),
  );
}
