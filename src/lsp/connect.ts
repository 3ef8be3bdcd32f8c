// The language-server domain's entry: the run's language services with their diagnostic ledger.
import type { LanguageServerSettings } from "../config/resources/language-servers.ts";
import type { Connect } from "../host/connect-context.ts";
import { LanguageServices } from "./service.ts";

export const connect: Connect<LanguageServerSettings, LanguageServices> = (settings, ctx) => {
  const services = new LanguageServices(ctx.workdir, settings, { trust: ctx.trust, ignored: ctx.stateDir ? [ctx.stateDir] : [] });
  ctx.lifecycle.add("language servers", () => services.close());
  return services;
};
