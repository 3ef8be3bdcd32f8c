# Tells how one process ends (its exit code, or the signal that killed it), for a process this one did not start.
# Only a process's parent may wait for it; a tracer that asked for the exit event sees the status first.
# PTRACE_SEIZE stops the process for nothing but that event and signals (passed on at once). Prints JSON lines.
import ctypes, errno, json, os, signal, sys

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
PTRACE_CONT, PTRACE_DETACH, PTRACE_SEIZE, PTRACE_GETEVENTMSG, PTRACE_LISTEN = 7, 17, 0x4206, 0x4201, 0x4208
PTRACE_O_TRACEEXIT, PTRACE_EVENT_EXIT, PTRACE_EVENT_STOP, WALL = 0x40, 6, 0x80, 0x40000000
GROUP_STOPS = {signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU}


def say(**fields):
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def tell(status):
    if os.WIFEXITED(status):
        say(code=os.WEXITSTATUS(status))
    elif os.WIFSIGNALED(status):
        say(signal=os.WTERMSIG(status))
    else:
        say(unknown="an exit status of %d that is neither a code nor a signal" % status)


pid = int(sys.argv[1])
if libc.ptrace(PTRACE_SEIZE, pid, None, PTRACE_O_TRACEEXIT) != 0:
    error = ctypes.get_errno()
    say(unknown="it was gone before its exit could be watched" if error == errno.ESRCH else "tracing it was refused (%s)" % os.strerror(error))
    sys.exit(0)
say(watching=pid)
while True:
    try:
        _, status = os.waitpid(pid, WALL)
    except ChildProcessError:
        say(unknown="it was gone before its exit was seen")
        break
    if not os.WIFSTOPPED(status):
        tell(status)
        break
    stop_signal, event = os.WSTOPSIG(status), status >> 16
    if event == PTRACE_EVENT_EXIT:
        message = ctypes.c_ulong()
        libc.ptrace(PTRACE_GETEVENTMSG, pid, None, ctypes.byref(message))
        tell(message.value)
        libc.ptrace(PTRACE_DETACH, pid, None, None)
        break
    if event == PTRACE_EVENT_STOP:
        # A group stop (SIGSTOP and kin) stays a stop; anything else runs on.
        libc.ptrace(PTRACE_LISTEN if stop_signal in GROUP_STOPS else PTRACE_CONT, pid, None, None)
    else:
        # A signal on its way to the process: delivered unchanged.
        libc.ptrace(PTRACE_CONT, pid, None, ctypes.c_void_p(stop_signal))
