// How a program's end is told: its exit code, or the signal that killed it, as sure as the adapter lets us be.
import { constants } from "node:os";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { DapConnection } from "./connection.ts";

/** SIGSEGV for 11: this machine's signal names by number. */
export function signalName(signal: number): string {
  const name = Object.entries(constants.signals).find(([, number]) => number === signal)?.[0];
  return name ?? `signal ${signal}`;
}

/** The signal a stop was for, from its text ("signal SIGSEGV: invalid address"), as a number. */
export function stopSignal(text: string | undefined): number | undefined {
  const name = /\b(SIG[A-Z0-9]+)\b/.exec(text ?? "")?.[1];
  return name ? (constants.signals as Record<string, number>)[name] : undefined;
}

export interface ExitFacts {
  exitCode?: number;
  /** The signal that ended it, and whether that is certain or only one reading of the exit code. */
  signal?: { number: number; certain: boolean };
}

/** "The program exited with code 3." / "The program was killed by SIGSEGV (signal 11)." */
export function exitSentence(facts: ExitFacts): string {
  const { exitCode, signal } = facts;
  if (signal?.certain) {
    return `The program was killed by ${signalName(signal.number)} (signal ${signal.number}; the adapter reports it as exit status ${exitCode}).`;
  }
  if (exitCode === undefined) return "The program exited (the adapter did not say with which code).";
  if (signal) {
    return (
      `The program exited with code ${exitCode}, as the adapter reports it. It folds a death by a signal into this code, ` +
      `so it was either killed by ${signalName(signal.number)} (signal ${signal.number}) or exited with ${exitCode} itself.`
    );
  }
  return `The program exited with code ${exitCode}.`;
}

/** How a child process ended, as its exit watcher saw it (exit-watch.ts), or why that is unknown. */
export type ChildExit = { code: number } | { signal: number } | { unknown: string };

/** "child process 4312 exited with code 3" / "... was killed by SIGTERM (signal 15)": a child's end, for the next report. */
export function childExitSentence(pid: number | undefined, exit: ChildExit): string {
  const child = `child process ${pid ?? "?"}`;
  if ("code" in exit) return `${child} exited with code ${exit.code}`;
  if ("signal" in exit) return `${child} was killed by ${signalName(exit.signal)} (signal ${exit.signal})`;
  return `${child} ended; its exit code is unknown: ${exit.unknown}`;
}

/**
 * delve 1.20 sends no `exited` event and names the exit status only in console output when the
 * client disconnects: the program is gone, so disconnecting now costs nothing and tells the code.
 */
export async function exitStatusAtDisconnect(connection: DapConnection, pattern: RegExp, timeoutMs: number): Promise<number | undefined> {
  let code: number | undefined;
  const off = connection.onEvent((event) => {
    const text = (event as DebugProtocol.OutputEvent).body?.output;
    const found = event.event === "output" && text ? pattern.exec(text)?.[1] : undefined;
    if (found !== undefined) code = Number(found);
  });
  await connection.request("disconnect", { terminateDebuggee: true }, timeoutMs).catch(() => {});
  off();
  return code;
}
