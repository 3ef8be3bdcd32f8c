// The embedded operator page and the headers it is served with (a CSP pinned to its own inline code).
import { createHash } from "node:crypto";
import page from "./page.html" with { type: "text" };
import style from "./page.css" with { type: "text" };
import activityScript from "./activity.page.js" with { type: "text" };
import pageScript from "./page.page.js" with { type: "text" };

/**
 * The page as served: its markup with the style and the two scripts inlined, one block each, so
 * the CSP below can pin them by hash and the page needs no other request.
 */
export const PAGE_HTML = (page as unknown as string)
  .replace("<style></style>", () => `<style>\n${style}</style>`)
  .replace("<script></script>", () => `<script>\n${pageScript}\n${activityScript}</script>`);

/** sha256 of each inline block, so the CSP allows exactly this page's script and style and nothing injected. */
function inlineHashes(tag: "script" | "style"): string {
  const blocks = [...PAGE_HTML.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]!);
  return blocks.map((text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`).join(" ");
}

const CSP = [
  "default-src 'none'",
  `script-src ${inlineHashes("script")}`,
  `style-src ${inlineHashes("style")}`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function pageHeaders(): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
}
