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
