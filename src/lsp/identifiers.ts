// Which names a language accepts as identifiers: a rename to a keyword or a non-name is refused before any server is asked.
import { ToolFailure } from "../answer/failure.ts";

interface NameRules {
  language: string;
  shape: RegExp;
  /** What the shape allows, for the refusal. */
  allows: string;
  keywords: ReadonlySet<string>;
}

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

const JS_KEYWORDS = words(`break case catch class const continue debugger default delete do else enum export extends false finally for
  function if import in instanceof new null return super switch this throw true try typeof var void while with
  implements interface let package private protected public static yield await`);
const C_KEYWORDS = words(`auto break case char const continue default do double else enum extern float for goto if inline int long
  register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex
  _Imaginary _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local`);
const CPP_KEYWORDS = words(`alignas alignof and and_eq asm bitand bitor bool catch char8_t char16_t char32_t class compl concept const_cast
  consteval constexpr constinit co_await co_return co_yield decltype delete dynamic_cast explicit export false friend mutable
  namespace new noexcept not not_eq nullptr operator or or_eq private protected public reinterpret_cast requires static_assert
  static_cast template this thread_local throw true try typeid typename using virtual wchar_t xor xor_eq`);

/** By server id of the catalog; a server not listed gets the shape every one of these shares. */
const RULES: Record<string, NameRules> = {
  typescript: { language: "TypeScript/JavaScript", shape: /^#?[\p{L}_$][\p{L}\p{N}_$]*$/u, allows: "letters, digits, _ and $ (and a leading # for a private field)", keywords: JS_KEYWORDS },
  python: {
    language: "Python",
    shape: /^[\p{L}_][\p{L}\p{N}_]*$/u,
    allows: "letters, digits and _",
    keywords: words(`False None True and as assert async await break class continue def del elif else except finally for from global
      if import in is lambda nonlocal not or pass raise return try while with yield`),
  },
  go: {
    language: "Go",
    shape: /^[\p{L}_][\p{L}\p{N}_]*$/u,
    allows: "letters, digits and _",
    keywords: words(`break case chan const continue default defer else fallthrough for func go goto if import interface map package
      range return select struct switch type var`),
  },
  c: { language: "C/C++", shape: /^[A-Za-z_][A-Za-z0-9_]*$/, allows: "ASCII letters, digits and _", keywords: new Set([...C_KEYWORDS, ...CPP_KEYWORDS]) },
  rust: {
    language: "Rust",
    shape: /^(?!_$)[\p{L}_][\p{L}\p{N}_]*$/u,
    allows: "letters, digits and _ (not _ alone)",
    keywords: words(`as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref return
      self Self static struct super trait true type unsafe use where while async await dyn abstract become box do final macro
      override priv typeof unsized virtual yield try`),
  },
  dart: {
    language: "Dart",
    shape: /^[\p{L}_$][\p{L}\p{N}_$]*$/u,
    allows: "letters, digits, _ and $",
    keywords: words(`assert break case catch class const continue default do else enum extends false final finally for if in is new
      null rethrow return super switch this throw true try var void while with`),
  },
};

const ANY_LANGUAGE: NameRules = { language: "its language", shape: /^[\p{L}_][\p{L}\p{N}_]*$/u, allows: "letters, digits and _", keywords: new Set() };

/**
 * Refuses a new name that the language does not accept as a name: tsserver and pyright wrote
 * `def class(` (26 errors) and `Options`→`class` (100 errors), pyright `def add$2(`; gopls and
 * clangd refuse such names themselves.
 */
export function refuseBadName(serverId: string, name: string): void {
  const rules = RULES[serverId] ?? ANY_LANGUAGE;
  if (!rules.shape.test(name)) {
    throw new ToolFailure(`new_name ${JSON.stringify(name)} is not a ${rules.language} identifier: use ${rules.allows}, not starting with a digit. Nothing was changed.`, { code: "invalid_arguments" });
  }
  if (rules.keywords.has(name.replace(/^#/, ""))) {
    throw new ToolFailure(`new_name ${JSON.stringify(name)} is a ${rules.language} keyword and cannot name anything. Pick another name; nothing was changed.`, { code: "invalid_arguments" });
  }
}
