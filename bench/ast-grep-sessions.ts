// The searches an agent makes per language, on one public checkout each (bench/ast-grep-session.ts,
// bench/ast-grep-phases.ts): the corpus folder holds each checkout under the name given here.

/** Five searches per language, as an agent narrows a question; the first is also the cold and repeated one. */
export const SESSIONS: Record<string, { checkout: string; astGrep: string; patterns: string[] }> = {
  javascript: { checkout: "eslint", astGrep: "javascript", patterns: ["$A.forEach($$$B)", "context.report($$$A)", "new $C($$$A)", "const { $$$P } = $O", "if ($A) { return $B; }"] },
  typescript: { checkout: "core", astGrep: "typescript", patterns: ["$A ?? $B", "export function $F($$$P) { $$$B }", "$A as $T", "Object.keys($O)", "if (__DEV__) { $$$B }"] },
  python: { checkout: "mypy", astGrep: "python", patterns: ["isinstance($X, $T)", "raise $E($$$A)", "self.$A = $B", "assert $X", "for $A in $B: $$$C"] },
  go: { checkout: "prometheus", astGrep: "go", patterns: ["if err != nil { $$$B }", "return $A, err", "require.NoError($T, $E)", "defer $F($$$A)", "for $K, $V := range $M { $$$B }"] },
  rust: { checkout: "tokio", astGrep: "rust", patterns: ["$X.unwrap()", "Arc::new($X)", "impl $T for $S { $$$B }", "match $X { $$$A }", "$X.await"] },
  java: { checkout: "commons-lang", astGrep: "java", patterns: ["throw new IllegalArgumentException($$$A)", "assertEquals($A, $B)", "if ($A == null) { $$$B }", "$X.length()", "return $A;"] },
  c: { checkout: "redis", astGrep: "c", patterns: ["zfree($P);", "memcpy($D, $S, $N)", "sdsfree($S);", "if ($A == NULL) $B", "return $A;"] },
  cpp: { checkout: "imgui", astGrep: "cpp", patterns: ["IM_ASSERT($$$A)", "ImGui::$F($$$A)", "$A->$B($$$C)", "static $T $N = $V;", "return $A;"] },
};
