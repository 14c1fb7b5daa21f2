import { describe, expect, it } from 'vitest';
import { chooseGrantees } from './grantee-list';

type Row = { kind: 'user' | 'group'; id: number; name: string; edit: boolean };
const list: Row[] = [
  { kind: 'user', id: 1, name: 'Ann', edit: true },
  { kind: 'group', id: 1, name: 'Sales', edit: true },
  { kind: 'user', id: 2, name: 'Bob', edit: false },
];

describe('chooseGrantees', () => {
  it('keeps the other kind and the still chosen with their rights, drops the unchosen, adds the new', () => {
    const fresh = (id: number): Row => ({ kind: 'user', id, name: `#${id}`, edit: false });
    expect(chooseGrantees(list, 'user', [2, 3], fresh)).toEqual([
      { kind: 'group', id: 1, name: 'Sales', edit: true },
      { kind: 'user', id: 2, name: 'Bob', edit: false },
      { kind: 'user', id: 3, name: '#3', edit: false },
    ]);
  });

  it('tells a group from a person of the same id', () => {
    const fresh = (id: number): Row => ({ kind: 'group', id, name: `#${id}`, edit: false });
    expect(chooseGrantees(list, 'group', [], fresh)).toEqual([list[0], list[2]]);
  });
});
