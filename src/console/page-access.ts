// Who may use the operator page: a one-time ticket in the page link, traded once for the run's page
// secret, which the page keeps per origin and sends as a header. No cookie (cookies ignore ports),
// and never the secret in a URL (browsers keep every URL they opened in their history).
import { mintSecret, sameSecret } from "../platform/secrets.ts";

/** The header every request of the page carries its secret in; no MCP token is accepted here. */
export const PAGE_SECRET_HEADER = "Sidecar-Page-Secret";
/** Unused tickets kept at once; the oldest is dropped past this. */
const MAX_OPEN_TICKETS = 8;

export class PageAccess {
  /** Tickets not yet traded, oldest first. */
  private readonly tickets: string[] = [];

  constructor(private readonly secret: string) {}

  /**
   * A fresh ticket for a page link (`/#k=<ticket>`). It opens the page once: the URL, fragment
   * included, stays in the browser's history, so what it holds must be useless once used.
   */
  issueTicket(): string {
    const ticket = mintSecret();
    this.tickets.push(ticket);
    if (this.tickets.length > MAX_OPEN_TICKETS) this.tickets.shift();
    return ticket;
  }

  /** The page secret for an unused ticket, which is spent by this; undefined for any other string. */
  redeem(ticket: string): string | undefined {
    let found = -1;
    // Every ticket is compared, so timing says nothing about which one matched.
    this.tickets.forEach((open, k) => {
      if (sameSecret(ticket, open) && found < 0) found = k;
    });
    if (found < 0) return undefined;
    this.tickets.splice(found, 1);
    return this.secret;
  }

  /** True when the request carries the page secret in its header. */
  authorised(request: Request): boolean {
    const given = request.headers.get(PAGE_SECRET_HEADER);
    return given !== null && sameSecret(given, this.secret);
  }

  /**
   * A state-changing request must come from the page itself: same Origin as the Host it was sent
   * to, and a JSON body (which a cross-site form cannot send without a CORS preflight we never grant).
   */
  sameOriginJson(request: Request): boolean {
    const origin = request.headers.get("origin");
    const host = request.headers.get("host");
    const json = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
    if (!json || origin === null || host === null) return false;
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
}
