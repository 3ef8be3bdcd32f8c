// Where a JSON text breaks, as line and column: JavaScriptCore's JSON.parse names the fault but not its place.

interface JsonBreak {
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  /** What the text has there ("the end of the file", "'}'") and what JSON needs instead. */
  found: string;
  expected: string;
}

class Broken extends Error {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

/** The first place `text` stops being JSON, or undefined when it parses. */
export function jsonBreak(text: string): JsonBreak | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && " \t\r\n".includes(text[at]!)) at++;
  };
  const expect = (what: string, ok: boolean) => {
    if (!ok) throw new Broken(at, what);
  };
  const literal = (word: string) => {
    expect(word, text.startsWith(word, at));
    at += word.length;
  };
  const string = () => {
    expect("a string in double quotes", text[at] === '"');
    at++;
    while (at < text.length && text[at] !== '"') {
      expect("no control character inside a string (write \\n, \\t)", text.charCodeAt(at) >= 0x20);
      if (text[at] === "\\") {
        at++;
        if (text[at] === "u") {
          expect("four hex digits after \\u", /^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5)));
          at += 4;
        } else expect('an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX', text[at] !== undefined && '"\\/bfnrt'.includes(text[at]!));
      }
      at++;
    }
    expect('a closing "', text[at] === '"');
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    expect("a value (an object, array, string, number, true, false or null)", match !== null && match[0] !== "" && match[0] !== "-");
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const c = text[at];
    if (c === "{") return members("}", () => {
      string();
      space();
      expect("':' after the key", text[at] === ":");
      at++;
      value();
    });
    if (c === "[") return members("]", value);
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    number();
  };
  const members = (close: string, member: () => void) => {
    at++;
    space();
    if (text[at] === close) {
      at++;
      return;
    }
    for (;;) {
      space();
      member();
      space();
      if (text[at] === ",") {
        at++;
        space();
        expect(`another ${close === "}" ? "key" : "value"} after ',' (JSON allows no trailing comma)`, text[at] !== close);
        continue;
      }
      expect(`',' or '${close}'`, text[at] === close);
      at++;
      return;
    }
  };
  try {
    value();
    space();
    expect("nothing after the value", at === text.length);
    return undefined;
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    return place(text, error.offset, error.expected);
  }
}

function place(text: string, offset: number, expected: string): JsonBreak {
  const before = text.slice(0, offset).split("\n");
  const found = offset >= text.length ? "the end of the file" : JSON.stringify(text[offset]);
  return { line: before.length, column: before.at(-1)!.length + 1, found, expected };
}
