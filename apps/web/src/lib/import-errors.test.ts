import { describe, expect, it } from 'vitest';
import { groupImportErrors } from './import-errors';

describe('groupImportErrors', () => {
  it('groups row errors by row with the field named, and keeps the rest apart', () => {
    const { byRow, general } = groupImportErrors(
      [
        { path: 'row 2.email', message: 'Enter a valid e-mail address' },
        { path: 'row 2.username', message: 'This username is taken' },
        { path: 'row 5', message: 'Empty row' },
        { path: 'file', message: 'The header row is missing "email"' },
      ],
      { email: 'E-mail', username: 'Username' },
    );
    expect(byRow.get(2)).toEqual([
      'E-mail: Enter a valid e-mail address',
      'Username: This username is taken',
    ]);
    expect(byRow.get(5)).toEqual(['Empty row']);
    expect(general).toEqual(['The header row is missing "email"']);
  });
});
