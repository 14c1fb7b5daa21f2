import { authContract } from './auth.js';
import { backupContract } from './backup.js';
import { emailContract } from './email.js';
import { groupContract } from './group.js';
import type { EndpointDef } from './http.js';
import { licenceContract } from './licence.js';
import { settingsContract } from './settings.js';
import { userContract } from './user.js';

export * from './access.js';
export * from './auth.js';
export * from './backup.js';
export * from './common.js';
export * from './email.js';
export * from './group.js';
export * from './http.js';
export * from './licence.js';
export * from './messages.js';
export * from './password-policy.js';
export * from './settings.js';
export * from './user.js';

/** Every call of the product, by area. The key `area.name` is the operationId. */
export const contract = {
  auth: authContract,
  email: emailContract,
  user: userContract,
  group: groupContract,
  backup: backupContract,
  settings: settingsContract,
  licence: licenceContract,
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
