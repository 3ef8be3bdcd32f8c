// The syntax tests' call(): test/helpers/call.ts, which lists the tools first so the SDK checks each
// result against its output schema. Kept for files still importing it here; import the helper itself.
export { call, type Called } from "../helpers/call.ts";
