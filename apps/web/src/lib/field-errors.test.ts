import type { ChangeEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { stateFieldBinder } from './field-errors';

describe('stateFieldBinder', () => {
  it('gives a field its name, its error, its value and the setter its typing calls', () => {
    const set = vi.fn();
    const bind = stateFieldBinder<'time' | 'cron'>({ time: 'Choose a time' });
    const props = bind('time', '02:00', set);
    expect(props).toMatchObject({ name: 'time', error: 'Choose a time', value: '02:00' });
    props.onChange({ target: { value: '03:30' } } as ChangeEvent<HTMLInputElement>);
    expect(set).toHaveBeenCalledWith('03:30');
    expect(bind('cron', '', set).error).toBeUndefined();
  });
});
