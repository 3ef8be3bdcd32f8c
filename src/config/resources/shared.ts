// Schema pieces several resources use.
import * as v from "valibot";

/** An http(s) URL, worded the way config errors read: "expected an http(s) URL". */
export const httpUrl = v.pipe(
  v.string("expected an http(s) URL"),
  v.check((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "expected an http(s) URL"),
);

export const nonEmptyString = (what: string) =>
  v.pipe(v.string(`expected ${what} as a string`), v.minLength(1, `expected ${what}, got an empty string`));

/**
 * A strict object that is an object: valibot's object schemas accept an array (`"resources": []`
 * ran with no tools, `"parser": []` registered the parser), so the kind is checked first.
 */
export const configObject = <const T extends v.ObjectEntries>(entries: T) =>
  v.pipe(
    v.custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "expected an object ({…}), not an array or a scalar"),
    v.strictObject(entries),
  );
