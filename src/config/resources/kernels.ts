// Settings of the kernel factory resource (eval).
import * as v from "valibot";

export const kernelSettings = v.strictObject({});
export type KernelSettings = v.InferOutput<typeof kernelSettings>;
