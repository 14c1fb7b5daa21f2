import type { ButtonHTMLAttributes, ReactNode } from 'react';

/** A button that shows a spinner and its pending label while its action runs. */
export function PendingButton({
  pending,
  pendingLabel,
  children,
  variant = 'primary',
  block = false,
  type = 'submit',
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
  variant?: 'primary' | 'ghost' | 'danger';
  block?: boolean;
}) {
  return (
    <button
      type={type}
      className={`button button--${variant}${block ? ' button--block' : ''}`}
      disabled={pending || disabled}
      {...rest}
    >
      {pending ? (
        <>
          <span
            className={`spinner spinner--small${variant === 'ghost' ? ' spinner--dark' : ''}`}
            aria-hidden="true"
          />{' '}
          {pendingLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}
