// A gate in front of the real npm registry: requests wait until the test opens it, so "an install is running" is a state a test can hold.
export interface RegistryGate extends AsyncDisposable {
  /** Point BUN_CONFIG_REGISTRY / NPM_CONFIG_REGISTRY here. */
  url: string;
  /** Resolves once some request (a tarball download) is waiting at the gate. */
  requested(): Promise<void>;
  /** Lets every waiting and later request through to the real registry. */
  open(): void;
}

const UPSTREAM = "https://registry.npmjs.org";

export function registryGate(): RegistryGate {
  let opened!: () => void;
  const gate = new Promise<void>((resolve) => (opened = resolve));
  let sawRequest!: () => void;
  const firstRequest = new Promise<void>((resolve) => (sawRequest = resolve));
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      sawRequest();
      await gate;
      const url = new URL(request.url);
      const upstream = await fetch(`${UPSTREAM}${url.pathname}${url.search}`, { headers: { accept: request.headers.get("accept") ?? "*/*" } });
      return new Response(upstream.body, { status: upstream.status, headers: { "content-type": upstream.headers.get("content-type") ?? "application/octet-stream" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/`,
    requested: () => firstRequest,
    open: () => opened(),
    async [Symbol.asyncDispose]() {
      opened();
      await server.stop(true);
    },
  };
}

/** A registry nothing listens on: installs fail at once with ConnectionRefused. */
export const BLOCKED_REGISTRY = "http://127.0.0.1:9/";
