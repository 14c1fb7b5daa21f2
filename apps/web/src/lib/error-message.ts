// The spec's one rule (§5) for turning anything thrown into one sentence for a person.

export const FALLBACK_ERROR_MESSAGE = 'An error occurred, please try again later';
export const OFFLINE_MESSAGE = 'Quire could not be reached. Check your connection and try again.';
export const CHECK_FIELDS_MESSAGE = 'Check the fields marked in the form.';

/** What browsers say when a request never reached the server. */
const NETWORK_FAILURE =
  /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|Network request failed)$/i;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The response body an error carries: our ApiError's `body`, or an axios-style `response.data`. */
function responseBody(error: object): Record<string, unknown> | null {
  const candidate =
    (error as { body?: unknown }).body ?? (error as { response?: { data?: unknown } }).response?.data;
  return candidate !== null && typeof candidate === 'object' ? (candidate as Record<string, unknown>) : null;
}

/**
 * A string as it is; an array joined by ", "; the response body's `message` or `error`;
 * the error's own `message`; else "An error occurred, please try again later".
 */
export function errorMessage(error: unknown): string {
  const said = rawErrorMessage(error);
  // Browsers' words for "no connection" are not for people (issue 10).
  return NETWORK_FAILURE.test(said.trim()) ? OFFLINE_MESSAGE : said;
}

/**
 * The toast text of a failed call: the error-message rule, except that a refusal naming
 * fields says so in words (each field shows its own message), never `field: message`.
 */
export function failureMessage(error: unknown): string {
  const errors = (error as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) return CHECK_FIELDS_MESSAGE;
  return errorMessage(error);
}

function rawErrorMessage(error: unknown): string {
  const asText = text(error);
  if (asText) return asText;

  if (Array.isArray(error)) {
    const parts = error
      .map((item) => text(item) ?? text((item as { message?: unknown } | null)?.message))
      .filter((part): part is string => part !== null);
    return parts.length > 0 ? parts.join(', ') : FALLBACK_ERROR_MESSAGE;
  }

  if (error !== null && typeof error === 'object') {
    const body = responseBody(error);
    const fromBody = text(body?.message) ?? text(body?.error);
    if (fromBody) return fromBody;
    const own = text((error as { message?: unknown }).message);
    if (own) return own;
  }

  return FALLBACK_ERROR_MESSAGE;
}
