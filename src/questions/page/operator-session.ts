// Who may use the operator page: the token from the query string once, then a per-run cookie.
import { createHash } from "node:crypto";
import { sameSecret } from "../../platform/secrets.ts";

export class OperatorSession {
  /** Named after a hash of the token so two sidecars on one host (cookies ignore ports) never clash. */
  readonly cookieName: string;

  constructor(private readonly token: string) {
    this.cookieName = `sidecar_operator_${createHash("sha256").update(token).digest("hex").slice(0, 12)}`;
  }

  /** The token in `?token=`, when it is the right one. */
  queryTokenValid(url: URL): boolean {
    const given = url.searchParams.get("token");
    return given !== null && sameSecret(given, this.token);
  }

  cookieValid(request: Request): boolean {
    const given = readCookie(request.headers.get("cookie") ?? "", this.cookieName);
    return given !== undefined && sameSecret(given, this.token);
  }

  /** HttpOnly so page scripts never see it; SameSite=Strict so other sites' requests do not carry it. */
  setCookie(): string {
    return `${this.cookieName}=${this.token}; Path=/; HttpOnly; SameSite=Strict`;
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

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
