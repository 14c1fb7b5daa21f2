/** Where a file opens in the web client (its detail page). */
export const fileLink = (id: number) => `/files/${id}`;

/** The search results page for a text. */
export const searchLink = (search: string) => `/search?q=${encodeURIComponent(search)}`;
