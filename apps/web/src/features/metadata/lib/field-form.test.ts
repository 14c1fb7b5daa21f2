import { describe, expect, it } from 'vitest';
import { bodyOf, emptyField } from './field-form';

describe('the field form', () => {
  it('sends only the options of the chosen type, empty boxes as none', () => {
    const typed = {
      ...emptyField,
      name: 'Amount',
      min_number: '0',
      max_number: '',
      pattern: 'x',
      max_length: '9',
    };
    expect(bodyOf({ ...typed, type: 'number' })).toEqual({
      name: 'Amount',
      type: 'number',
      required: false,
      help_text: '',
      min_number: 0,
      max_number: null,
    });
    expect(bodyOf({ ...typed, type: 'text' }, 4)).toMatchObject({ id: 4, max_length: 9, pattern: 'x' });
    expect(bodyOf({ ...typed, type: 'select', value_list_id: '3' })).toMatchObject({ value_list_id: 3 });
    expect(bodyOf({ ...typed, type: 'boolean' })).not.toHaveProperty('min_number');
  });
});
