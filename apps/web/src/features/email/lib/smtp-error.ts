// SMTP failures in words a person understands. The mail library's codes (ENOTFOUND,
// ECONNREFUSED, ETIMEDOUT, EAUTH…) stay available as the raw details.

export interface SmtpExplanation {
  /** "The mail server at smtp.example.com:587 refused the connection" */
  summary: string;
  /** The text as the server or library gave it. */
  detail: string;
}

/** Where the mail goes, to name it when the error text does not. */
export interface SmtpTarget {
  host?: string | undefined;
  port?: number | undefined;
}

/** The words for a known SMTP failure in `raw`, or null when it is not one. */
export function explainSmtpError(
  raw: string | null | undefined,
  target: SmtpTarget = {},
): SmtpExplanation | null {
  if (!raw) return null;
  const text = raw.trim();
  const explain = (summary: string) => ({ summary, detail: text });

  if (/\bENOTFOUND\b|\bEDNS\b|\bEAI_AGAIN\b/.test(text)) {
    const host = /ENOTFOUND\s+(\S+)/.exec(text)?.[1] ?? target.host;
    return explain(host ? `Could not find the mail server ${host}` : 'Could not find the mail server');
  }
  if (/\bECONNREFUSED\b/.test(text)) {
    const at = /ECONNREFUSED\s+(\S+):(\d+)/.exec(text);
    const host = at?.[1] ?? target.host;
    const port = at?.[2] ?? (target.port === undefined ? undefined : String(target.port));
    const where = host ? ` at ${host}${port ? `:${port}` : ''}` : '';
    return explain(`The mail server${where} refused the connection`);
  }
  if (
    /\bETIMEDOUT\b/.test(text) ||
    (/\b(ESOCKET|ECONNECTION)\b/.test(text) && /time[ds]?\s*-?out/i.test(text))
  )
    return explain('The mail server did not answer');
  if (/\bEAUTH\b/.test(text)) return explain('The mail server refused the username or password');
  return null;
}

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const HOST_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*\\.?$`);
const IPV6 = /^\[?[0-9a-fA-F]*:[0-9a-fA-F:.]*\]?$/;

/** A host name ("smtp.example.com") or an IP address, with no spaces, scheme or port. */
export function isSmtpHost(host: string): boolean {
  return HOST_NAME.test(host) || IPV6.test(host);
}
