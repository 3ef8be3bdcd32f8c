// Types for files embedded with `import … with { type: "file" | "text" }` (Bun bundles them into the binary).
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.gz" {
  const path: string;
  export default path;
}
declare module "*.txt" {
  const text: string;
  export default text;
}
declare module "*.py" {
  const text: string;
  export default text;
}
declare module "*.html" {
  const text: string;
  export default text;
}
declare module "*.lock" {
  const text: string;
  export default text;
}
declare module "*.preload.js" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.page.js" {
  const text: string;
  export default text;
}
