// A progress line on stderr while probes run: rewritten in place on a terminal, one line per probe otherwise.

export class ProbeProgress {
  private readonly pending: Set<string>;
  private readonly started = performance.now();

  constructor(
    private readonly out: { write(text: string): unknown; isTTY?: boolean },
    labels: readonly string[],
  ) {
    this.pending = new Set(labels);
    this.write(`probing ${labels.join(", ")}…`);
  }

  done(label: string): void {
    this.pending.delete(label);
    const elapsed = `${((performance.now() - this.started) / 1000).toFixed(1)} s`;
    if (this.out.isTTY) this.write(this.pending.size ? `probing ${[...this.pending].join(", ")}… (${elapsed})` : "");
    else this.write(`${label} probed (${elapsed})`);
  }

  /** Clears the live line so the report starts on a clean one. */
  end(): void {
    if (this.out.isTTY) this.out.write("\r\x1b[K");
  }

  private write(text: string): void {
    if (this.out.isTTY) this.out.write(`\r\x1b[K${text ? `sidecar doctor: ${text}` : ""}`);
    else this.out.write(`sidecar doctor: ${text}\n`);
  }
}
