# Prints each failing test of a `bun test` log again, with the lines bun wrote for it (its
# error, the source excerpt, anything it logged), so a log cut to its tail still shows why.
# Usage: awk -f build/repeat-failures.awk test-output.txt

function flush_buffer() { n = 0 }

# Bun's closing summary lists the failures by name only; they were all shown by then.
/^[0-9]+ tests? failed:$/ { exit }

/^[^ ].*\.test\.[cm]?[jt]sx?:$/ { file = $0; flush_buffer(); next }

/^\((pass|skip|todo)\) / { flush_buffer(); next }

/^\(fail\) / {
  if (!shown++) print "\n==== The failing tests again, each with what bun printed for it ===="
  print "\n" file
  first = n > 80 ? n - 80 : 0
  for (i = first; i < n; i++) print buffer[i]
  print
  flush_buffer()
  next
}

{ buffer[n++] = $0 }
