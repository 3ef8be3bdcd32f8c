// The processes of one debug session (the launched program and the children debugged with it) and where their stops go.
import type { StopOutcome } from "./stop-report.ts";

/** What the family reads of a member; DebugSession is one (an interface, so the two files do not import each other). */
interface FamilyMember {
  readonly live: boolean;
  readonly programPid: number | undefined;
}

/** A stop, an exit or the end of one member, as the call that waits for it learns it. */
export interface FamilyStop<M> {
  member: M;
  outcome: StopOutcome;
}

/**
 * One session's processes. A control call waits for the next stop of any of them (a breakpoint in
 * a child is hit while the call continued the parent), or for the end of the main process; a
 * child's exit alone ends no wait, it is told in the next report. A stop no call waited for is
 * kept and answers the next wait at once, so two processes stopping together lose neither stop.
 */
export class ProcessFamily<M extends FamilyMember> {
  readonly members: M[];
  /** The process that stopped last: the one step, continue, stack and evaluate act on. */
  focus: M;
  /** Set when the session ends: a child announced after that is not attached to. */
  closing = false;
  /** Attaches to a child process the adapter announced (set by the supervisor, which builds sessions). */
  attachChild: ((parent: M, configuration: Record<string, unknown>) => void) | undefined;
  private waiters: { resolve(stop: FamilyStop<M>): void }[] = [];
  private unreported: FamilyStop<M>[] = [];
  /**
   * Sentences about the children for the next report: one exited (a promise while its exit status
   * is being read), one could not be debugged.
   */
  private events: (string | Promise<string>)[] = [];
  private readonly gone = new Set<M>();

  /** `childProcesses`: the launch asked to debug the program's child processes. */
  constructor(
    readonly root: M,
    readonly childProcesses: boolean,
  ) {
    this.members = [root];
    this.focus = root;
  }

  get children(): M[] {
    return this.members.slice(1);
  }

  add(child: M): void {
    this.members.push(child);
  }

  /**
   * The adapter announced a child process (debugpy 1.6's debugpyAttach event, 1.8's startDebugging
   * request): it is attached to when the launch asked for children. Says whether it was taken.
   */
  announced(parent: M, configuration: Record<string, unknown>): boolean {
    if (!this.childProcesses || !this.attachChild) return false;
    this.attachChild(parent, configuration);
    return true;
  }

  /**
   * The next stop of any member after `resumed` moves on (or the main process's end). A stop that
   * came while no call waited answers at once.
   */
  next(resumed: M): Promise<FamilyStop<M>> {
    this.unreported = this.unreported.filter((stop) => stop.member !== resumed && stop.member.live);
    const waiting = this.unreported.shift();
    if (waiting) return Promise.resolve(waiting);
    return new Promise((resolve) => this.waiters.push({ resolve }));
  }

  /** A member stopped: the waiting call hears it, or the next one does. */
  stopped(member: M, outcome: StopOutcome): void {
    if (!this.waiters.length) {
      this.unreported = this.unreported.filter((stop) => stop.member !== member);
      this.unreported.push({ member, outcome });
      return;
    }
    this.wake({ member, outcome });
  }

  /**
   * A member exited or its session ended. The main process's end ends every wait; a child's is a
   * sentence for the next report, and the focus returns to the main process.
   */
  ended(member: M, outcome: StopOutcome, sentence: string | Promise<string>): void {
    if (member === this.root) return this.wake({ member, outcome });
    if (this.gone.has(member)) return;
    this.gone.add(member);
    this.unreported = this.unreported.filter((stop) => stop.member !== member);
    if (this.focus === member) this.focus = this.root;
    if (!this.closing) this.events.push(sentence);
  }

  /**
   * Moves the focus to the live process with `pid` (a call that names it acts on it, and so do the
   * next ones). Returns it, or undefined when no live process has that pid. A stop of it kept for
   * the next call is dropped: the caller chose it knowing it stopped, and would hear of it twice.
   */
  focusOn(pid: number): M | undefined {
    const member = this.members.find((candidate) => candidate.live && candidate.programPid === pid);
    if (!member) return undefined;
    this.focus = member;
    this.unreported = this.unreported.filter((stop) => stop.member !== member);
    return member;
  }

  /** A sentence for the next report (a child that could not be debugged). */
  note(sentence: string): void {
    this.events.push(sentence);
  }

  /** The sentences gathered since the last report, once. */
  takeEvents(): Promise<string[]> {
    return Promise.all(this.events.splice(0));
  }

  private wake(stop: FamilyStop<M>): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve(stop);
  }
}
