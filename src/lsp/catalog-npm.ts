// Catalog entries for servers distributed on npm: installed by the sidecar on first use and run by its own Bun.
import type { ServerSpec } from "./server-spec.ts";

/** TypeScript 5 (7.x has no tsserver); the same pin serves typescript, vue and astro. */
const TYPESCRIPT = "5.9.3";
const TYPESCRIPT_LANGUAGE_SERVER = "5.3.0";
const LANGSERVERS_EXTRACTED = { name: "vscode-langservers-extracted", packages: { "vscode-langservers-extracted": "4.10.0" } };

/** Files no project marker claims: a shell script or a YAML file is served wherever it is. */
const STANDALONE = { rootMarkers: [".git"], workdirRoot: true } as const;

/** A tsserver the server's own install provides: never the workspace's node_modules/typescript, which tsls prefers. */
const OWN_TSSERVER = { tsserver: { path: "{{module:typescript/lib/tsserver.js}}" }, disableAutomaticTypingAcquisition: true };

export const NPM_SERVERS: readonly ServerSpec[] = [
  {
    id: "typescript",
    languages: ["typescript", "typescriptreact", "javascript", "javascriptreact"],
    extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
    languageIds: { ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact" },
    rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json"],
    command: "typescript-language-server",
    args: ["--stdio"],
    // One tsserver, not two. With its default second, "partial semantic" server, a query sent
    // while the project loads is answered from the open files alone (references: the declaration
    // only) — and we wait for loading to end before asking anyway. Measured on a fresh server:
    // the first references in 2.5–3.2 s instead of 4.2–4.4 s, as the two no longer load at once.
    initializationOptions: { tsserver: { useSyntaxServer: "never" } },
    checker: { command: "tsc", args: ["--noEmit", "--pretty", "false"], format: "tsc", npmEntry: "typescript/lib/tsc.js" },
    npm: { packages: { "typescript-language-server": TYPESCRIPT_LANGUAGE_SERVER, typescript: TYPESCRIPT }, entry: "typescript-language-server/lib/cli.mjs" },
    installHint: "npm i -g typescript-language-server typescript@5",
    // Project plugins named in tsconfig.json load only from beside tsserver, so its own copy keeps them out too.
    untrusted: { initializationOptions: OWN_TSSERVER },
  },
  {
    id: "python",
    languages: ["python"],
    extensions: [".py", ".pyi"],
    rootMarkers: ["pyproject.toml", "pyrightconfig.json", "setup.py", "setup.cfg", "requirements.txt"],
    command: "pyright-langserver",
    args: ["--stdio"],
    checker: { command: "pyright", args: ["--outputjson"], format: "pyright-json", npmEntry: "pyright/index.js" },
    npm: { packages: { pyright: "1.1.414" }, entry: "pyright/langserver.index.js" },
    installHint: "npm i -g pyright",
  },
  {
    id: "bash",
    languages: ["shellscript"],
    extensions: [".sh", ".bash"],
    ...STANDALONE,
    command: "bash-language-server",
    args: ["start"],
    // Definitions in sourced files come from its background analysis, which it reports only in its log.
    startupAnalysis: { endsWith: "log", pattern: "BackgroundAnalysis: (Completed|stopped|failed|skipping)" },
    npm: { packages: { "bash-language-server": "5.8.1" }, entry: "bash-language-server/out/cli.js" },
    installHint: "npm i -g bash-language-server (diagnostics need shellcheck: apt-get install shellcheck)",
    diagnosticsFrom: { command: "shellcheck", installHint: "apt-get install shellcheck, brew install shellcheck, or a release from https://github.com/koalaman/shellcheck" },
  },
  {
    id: "yaml",
    languages: ["yaml"],
    extensions: [".yaml", ".yml"],
    ...STANDALONE,
    command: "yaml-language-server",
    args: ["--stdio"],
    // Schemas from schemastore.org by file name (GitHub workflows, compose files…) when the network allows.
    settings: { yaml: { validate: true, hover: true, completion: true, format: { enable: true }, schemaStore: { enable: true } } },
    npm: { packages: { "yaml-language-server": "2.0.0" }, entry: "yaml-language-server/bin/yaml-language-server" },
    installHint: "npm i -g yaml-language-server",
  },
  {
    id: "json",
    languages: ["json"],
    extensions: [".json", ".jsonc"],
    languageIds: { ".jsonc": "jsonc", "tsconfig.json": "jsonc", "jsconfig.json": "jsonc" },
    ...STANDALONE,
    command: "vscode-json-language-server",
    args: ["--stdio"],
    initializationOptions: { provideFormatter: true },
    settings: { json: { validate: { enable: true } } },
    npm: { ...LANGSERVERS_EXTRACTED, entry: "vscode-langservers-extracted/bin/vscode-json-language-server" },
    installHint: "npm i -g vscode-langservers-extracted",
  },
  {
    id: "html",
    languages: ["html"],
    extensions: [".html", ".htm"],
    ...STANDALONE,
    command: "vscode-html-language-server",
    args: ["--stdio"],
    initializationOptions: { provideFormatter: true, embeddedLanguages: { css: true, javascript: true } },
    settings: { html: { validate: { scripts: true, styles: true } }, css: { validate: true }, javascript: { validate: { enable: true } } },
    npm: { ...LANGSERVERS_EXTRACTED, entry: "vscode-langservers-extracted/bin/vscode-html-language-server" },
    installHint: "npm i -g vscode-langservers-extracted",
  },
  {
    id: "css",
    languages: ["css", "scss", "less"],
    extensions: [".css", ".scss", ".less"],
    languageIds: { ".scss": "scss", ".less": "less" },
    ...STANDALONE,
    command: "vscode-css-language-server",
    args: ["--stdio"],
    initializationOptions: { provideFormatter: true },
    settings: { css: { validate: true }, scss: { validate: true }, less: { validate: true } },
    npm: { ...LANGSERVERS_EXTRACTED, entry: "vscode-langservers-extracted/bin/vscode-css-language-server" },
    installHint: "npm i -g vscode-langservers-extracted",
  },
  {
    id: "dockerfile",
    languages: ["dockerfile"],
    extensions: [".dockerfile"],
    fileNames: ["Dockerfile", "Containerfile", "Dockerfile.*", "Containerfile.*"],
    ...STANDALONE,
    command: "docker-langserver",
    args: ["--stdio"],
    npm: { packages: { "dockerfile-language-server-nodejs": "0.15.0" }, entry: "dockerfile-language-server-nodejs/bin/docker-langserver" },
    installHint: "npm i -g dockerfile-language-server-nodejs",
  },
  {
    id: "php",
    languages: ["php"],
    extensions: [".php", ".phtml"],
    rootMarkers: ["composer.json", ".git"],
    workdirRoot: true,
    command: "intelephense",
    args: ["--stdio"],
    // It indexes after `initialized`, reporting progress only once indexing has begun.
    startupAnalysis: { endsWith: "progress" },
    // Intelephense is free for these features (a licence unlocks others); it sends no telemetry with this off.
    settings: { intelephense: { telemetry: { enabled: false }, diagnostics: { enable: true } } },
    npm: { packages: { intelephense: "1.18.5" }, entry: "intelephense/lib/intelephense.js" },
    installHint: "npm i -g intelephense",
  },
  {
    id: "vue",
    languages: ["vue"],
    extensions: [".vue"],
    rootMarkers: ["package.json", "tsconfig.json", "jsconfig.json"],
    // Vue's hybrid mode: tsserver with Vue's own plugin answers everything in a .vue file the lsp tool asks.
    statusNeedsFiles: true,
    command: "typescript-language-server",
    args: ["--stdio"],
    initializationOptions: {
      tsserver: { useSyntaxServer: "never", path: "{{module:typescript/lib/tsserver.js}}" },
      plugins: [{ name: "@vue/typescript-plugin", location: "{{module:@vue/typescript-plugin}}", languages: ["vue"] }],
    },
    unanswered: { symbols: 'tsserver gives no outline of a .vue file; symbols with a query searches its names, e.g. {"action": "symbols", "query": "count", "file": "src/App.vue"}' },
    npm: {
      packages: { "@vue/typescript-plugin": "3.3.11", "typescript-language-server": TYPESCRIPT_LANGUAGE_SERVER, typescript: TYPESCRIPT },
      entry: "typescript-language-server/lib/cli.mjs",
    },
    installHint: "npm i -g typescript-language-server typescript@5 @vue/typescript-plugin",
    untrusted: { initializationOptions: { disableAutomaticTypingAcquisition: true } },
  },
  {
    id: "svelte",
    languages: ["svelte"],
    extensions: [".svelte"],
    rootMarkers: ["svelte.config.js", "svelte.config.mjs", "svelte.config.ts", "package.json"],
    statusNeedsFiles: true,
    command: "svelteserver",
    args: ["--stdio"],
    npm: { packages: { "svelte-language-server": "0.18.4", typescript: TYPESCRIPT }, entry: "svelte-language-server/bin/server.js" },
    installHint: "npm i -g svelte-language-server",
    // The server's own switch: no svelte.config.js, and svelte, prettier and TypeScript from its own install.
    untrusted: { initializationOptions: { isTrusted: false } },
  },
  {
    id: "astro",
    languages: ["astro"],
    extensions: [".astro"],
    rootMarkers: ["astro.config.mjs", "astro.config.ts", "astro.config.js", "package.json"],
    statusNeedsFiles: true,
    command: "astro-ls",
    args: ["--stdio"],
    pullsUnannounced: true,
    initializationOptions: { typescript: { tsdk: "{{module:typescript/lib}}" } },
    npm: { packages: { "@astrojs/language-server": "2.17.1", typescript: TYPESCRIPT }, entry: "@astrojs/language-server/bin/nodeServer.js" },
    installHint: "npm i -g @astrojs/language-server typescript@5",
  },
  {
    id: "sql",
    languages: ["sql"],
    extensions: [".sql"],
    rootMarkers: [".sqllsrc.json", ".git"],
    workdirRoot: true,
    command: "sql-language-server",
    args: ["up", "--method", "stdio"],
    // sqlint's style rules (a line break after SELECT, upper-case keywords) report at error level by
    // default; off, diagnostics are the parser's syntax errors.
    settings: {
      sqlLanguageServer: {
        lint: {
          rules: Object.fromEntries(
            ["align-column-to-the-first", "column-new-line", "linebreak-after-clause-keyword", "reserved-word-case", "space-surrounding-operators", "where-clause-new-line", "align-where-clause-to-the-first", "require-as-to-rename-column"].map((rule) => [rule, "off"]),
          ),
        },
      },
    },
    npm: {
      packages: { "sql-language-server": "1.7.1" },
      // Its code imports vscode-languageserver-protocol/lib/common, which the 3.15 its range resolves to lacks.
      overrides: { "vscode-languageserver-protocol": "3.17.5" },
      entry: "sql-language-server/npm_bin/cli.js",
    },
    installHint: "npm i -g sql-language-server",
  },
  {
    id: "graphql",
    languages: ["graphql"],
    extensions: [".graphql", ".gql"],
    rootMarkers: [".graphqlrc", ".graphqlrc.json", ".graphqlrc.yml", ".graphqlrc.yaml", "graphql.config.json", "graphql.config.yml", "graphql.config.yaml", "graphql.config.js", "graphql.config.ts", ".graphqlrc.js", ".graphqlrc.ts"],
    command: "graphql-lsp",
    args: ["server", "--method", "stream"],
    // It reads the config and schema after start-up and answers definition and hover with nothing until then.
    startupAnalysis: { endsWith: "log", pattern: "caches initialized" },
    npm: { packages: { "graphql-language-service-cli": "3.5.0" }, entry: "graphql-language-service-cli/bin/graphql.js" },
    installHint: "npm i -g graphql-language-service-cli",
    workspaceCodeFiles: {
      files: ["graphql.config.js", "graphql.config.ts", "graphql.config.cjs", "graphql.config.mjs", ".graphqlrc.js", ".graphqlrc.ts", ".graphqlrc.cjs", ".graphqlrc.mjs"],
      why: "the server runs a JavaScript or TypeScript GraphQL config to read it",
    },
  },
  {
    id: "prisma",
    languages: ["prisma"],
    extensions: [".prisma"],
    rootMarkers: ["schema.prisma", "package.json"],
    statusNeedsFiles: true,
    command: "prisma-language-server",
    args: ["--stdio"],
    // It reads `settings.enableDiagnostics` of whatever the client answers: null crashed it.
    settings: { prisma: { enableDiagnostics: true } },
    npm: { packages: { "@prisma/language-server": "31.12.10" }, entry: "@prisma/language-server/dist/bin.js" },
    installHint: "npm i -g @prisma/language-server",
    workspaceCodeFiles: {
      files: ["prisma.config.ts", "prisma.config.mts", "prisma.config.cts", "prisma.config.js", "prisma.config.mjs", "prisma.config.cjs"],
      why: "the server runs prisma.config.ts to read it",
    },
  },
];
