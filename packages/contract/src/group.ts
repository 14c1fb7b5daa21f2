import { z } from 'zod';
import { ZId, ZIdParams, ZNull, ZText, zMultiline } from './common.js';
import { endpoint } from './http.js';

// Groups of users (spec §7 "Group"), in the Settings area.

export const ZGroupMember = z.object({ id: z.number().int(), name: z.string() });

export const ZGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  member_count: z.number().int(),
  /** Members not deleted, by name. */
  members: z.array(ZGroupMember),
  created_at: z.string(),
});
export type TGroup = z.infer<typeof ZGroup>;

const ZDescription = zMultiline().trim().max(1000);
const ZUserIds = z.array(ZId).max(10000);

export const ZCreateGroupBody = z.object({
  name: ZText(100),
  description: ZDescription.optional(),
  user_ids: ZUserIds.optional(),
});
export type TCreateGroupBody = z.infer<typeof ZCreateGroupBody>;

export const ZEditGroupBody = z.object({
  name: ZText(100).optional(),
  description: ZDescription.optional(),
  /** When given, replaces the member list. */
  user_ids: ZUserIds.optional(),
});
export type TEditGroupBody = z.infer<typeof ZEditGroupBody>;

export const groupContract = {
  allGroups: endpoint({
    method: 'GET',
    path: '/api/all_group',
    guard: { area: 'settings', access: 'read' },
    summary: 'Every group with its member count and members, by name',
    response: z.array(ZGroup),
  }),
  createGroup: endpoint({
    method: 'POST',
    path: '/api/create_group',
    guard: { area: 'settings', access: 'write' },
    summary: 'Create a group (unique name), optionally with members',
    body: ZCreateGroupBody,
    response: ZGroup,
  }),
  editGroup: endpoint({
    method: 'POST',
    path: '/api/edit_group/{id}',
    guard: { area: 'settings', access: 'write' },
    summary: 'Rename or describe a group; `user_ids` replaces its members',
    params: ZIdParams,
    body: ZEditGroupBody,
    response: ZGroup,
  }),
  deleteGroup: endpoint({
    method: 'POST',
    path: '/api/group/delete/{id}',
    guard: { area: 'settings', access: 'write' },
    summary: 'Delete a group and its memberships (the users stay)',
    params: ZIdParams,
    response: ZNull,
  }),
};
