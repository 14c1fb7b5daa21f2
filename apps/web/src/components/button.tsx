import type { ButtonHTMLAttributes } from 'react';

/**
 * A plain (type="button") button in one of the house styles: `<Button variant="ghost" small>`
 * for `button button--ghost button--small`; `danger` adds the red text of `is-danger`.
 */
export function Button({
  variant,
  small = false,
  danger = false,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className'> & {
  variant?: 'primary' | 'ghost' | 'danger' | 'link';
  small?: boolean;
  danger?: boolean;
}) {
  const className = [
    'button',
    variant ? `button--${variant}` : '',
    small ? 'button--small' : '',
    danger ? 'is-danger' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return <button type="button" className={className} {...button} />;
}
