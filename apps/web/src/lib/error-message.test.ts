import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import {
  CHECK_FIELDS_MESSAGE,
  errorMessage,
  FALLBACK_ERROR_MESSAGE,
  failureMessage,
  OFFLINE_MESSAGE,
} from './error-message';

describe('errorMessage (spec §5)', () => {
  it('returns a string as it is', () => {
    expect(errorMessage('File is locked')).toBe('File is locked');
  });

  it('joins an array with ", "', () => {
    expect(errorMessage(['Name is required', 'Size is too big'])).toBe('Name is required, Size is too big');
  });

  it('takes the message of objects inside an array', () => {
    expect(errorMessage([{ message: 'First' }, 'Second'])).toBe('First, Second');
  });

  it("uses the response body's message", () => {
    expect(errorMessage(new ApiError(409, { message: 'The file is checked out by Ann' }))).toBe(
      'The file is checked out by Ann',
    );
    expect(errorMessage({ response: { data: { message: 'From an axios-style error' } } })).toBe(
      'From an axios-style error',
    );
  });

  it("uses the response body's error when it has no message", () => {
    expect(errorMessage({ response: { data: { error: 'Token expired' } } })).toBe('Token expired');
    expect(errorMessage({ body: { error: 'Quota reached' }, message: 'ignored' })).toBe('Quota reached');
  });

  it('says in words that the server could not be reached, never "Failed to fetch"', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(OFFLINE_MESSAGE);
    expect(errorMessage(new TypeError('NetworkError when attempting to fetch resource.'))).toBe(
      OFFLINE_MESSAGE,
    );
    expect(errorMessage(new TypeError('Load failed'))).toBe(OFFLINE_MESSAGE);
  });

  it('keeps field keys out of a toast: a refusal naming fields says to check them', () => {
    const refusal = new ApiError(400, {
      message: 'username: This username is taken (and 1 more)',
      code: 'validation_failed',
      errors: [{ path: 'body.username', message: 'This username is taken' }],
    });
    expect(failureMessage(refusal)).toBe(CHECK_FIELDS_MESSAGE);
    expect(failureMessage(new ApiError(409, { message: 'The file is locked' }))).toBe('The file is locked');
  });

  it("falls back to the error's own message", () => {
    expect(errorMessage({ response: { data: {} }, message: 'Network Error' })).toBe('Network Error');
  });

  it('falls back to the generic sentence for anything else', () => {
    for (const value of [undefined, null, '', '   ', 42, {}, [], [null], new Error('')]) {
      expect(errorMessage(value)).toBe(FALLBACK_ERROR_MESSAGE);
    }
    expect(FALLBACK_ERROR_MESSAGE).toBe('An error occurred, please try again later');
  });
});
