# The sidecar's Python kernel driver: runs cells sent as NDJSON on private fds and forwards output.
# Started as `python -c <this file>`; the sidecar speaks to it over the process's original
# stdin/stdout, which the driver moves onto private fds before any user code runs.
import ast
import codecs
import io
import json
import linecache
import os
import re
import sys
import threading
import time
from _queue import SimpleQueue  # queue.SimpleQueue itself; the queue module loads heapq and more at start-up

PROTO_IN = os.dup(0)
PROTO_OUT = os.dup(1)
# The original stderr stays private too: a fatal driver error goes there, where the sidecar reads it.
DIAG = os.dup(2)
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
_out_r, _out_w = os.pipe()
_err_r, _err_w = os.pipe()
os.dup2(_out_w, 1)
os.dup2(_err_w, 2)
os.close(_out_w)
os.close(_err_w)
os.environ.setdefault("MPLBACKEND", "Agg")

OUTBOX_FLUSH_SECONDS = 0.05
OUTBOX_MAX_CHARS = 64 * 1024
FORKED_CHILD_MESSAGE_CHARS = 512
SYNC_WAIT_SECONDS = 5.0
DRIVER_FILES = ("<string>", "<sidecar_magics>", "<sidecar_display>")

_send_lock = threading.Lock()


def send(message):
    data = (json.dumps(message, default=str) + "\n").encode("utf-8", "surrogateescape")
    with _send_lock:
        view = memoryview(data)
        while view:
            written = os.write(PROTO_OUT, view)
            view = view[written:]


class Outbox:
    """Output in the order it was written, coalesced, flushed every OUTBOX_FLUSH_SECONDS."""

    def __init__(self):
        self.lock = threading.Lock()
        self.chunks = []
        self.size = 0
        # Set in a forked child: line by line, as a terminal would. A pool worker is often ended by
        # SIGTERM, which no timed flush survives; whole lines keep two workers from mixing mid-line.
        self.eager = False
        # Whether a cell runs now. Output is tagged when written, not when the sidecar reads it: text
        # a thread wrote between cells and sent late is still background output, not the next cell's.
        self.cell_running = False

    def add(self, name, text):
        if not text:
            return
        between = not self.cell_running
        with self.lock:
            if self.chunks and self.chunks[-1][0] == name and self.chunks[-1][2] == between:
                self.chunks[-1][1].append(text)
            else:
                self.chunks.append((name, [text], between))
            self.size += len(text)
            full = self.size >= OUTBOX_MAX_CHARS
        if full or (self.eager and "\n" in text):
            self.flush()

    def flush(self):
        with self.lock:
            chunks, self.chunks, self.size = self.chunks, [], 0
        # A forked child shares the protocol pipe with its parent: its messages stay under PIPE_BUF
        # (4096 bytes; a character is at most 6 once JSON-escaped), so each write lands whole.
        step = FORKED_CHILD_MESSAGE_CHARS if self.eager else OUTBOX_MAX_CHARS
        for name, parts, between in chunks:
            text = "".join(parts)
            # One huge write still travels in bounded lines, so the sidecar never holds it whole.
            for start in range(0, len(text), step):
                message = {"type": "stream", "name": name, "text": text[start : start + step]}
                if between:
                    message["between"] = True
                send(message)


OUTBOX = Outbox()

_os_exit = os._exit


def _exit_after_flush(status):
    """os._exit skips every handler: what the cell printed in the last flush interval would be lost."""
    try:
        OUTBOX.flush()
    finally:
        _os_exit(status)


os._exit = _exit_after_flush


def _flusher():
    while True:
        time.sleep(OUTBOX_FLUSH_SECONDS)
        OUTBOX.flush()


def _before_fork():
    # Sent now, or the child would send the parent's unsent output a second time. The locks are
    # held across the fork, so the child never starts with one taken by a thread it does not have.
    OUTBOX.flush()
    OUTBOX.lock.acquire()
    _send_lock.acquire()


def _after_fork_in_parent():
    _send_lock.release()
    OUTBOX.lock.release()


def _after_fork_in_child():
    _send_lock.release()
    OUTBOX.lock.release()
    OUTBOX.eager = True
    # Threads do not survive a fork: without its own flusher a child's prints (a multiprocessing
    # worker's) waited for an exit that sends them, or were lost.
    threading.Thread(target=_flusher, daemon=True, name="sidecar-outbox").start()


os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent, after_in_child=_after_fork_in_child)


class ProtocolStream(io.TextIOBase):
    """sys.stdout / sys.stderr: Python-level writes go straight into the ordered outbox."""

    def __init__(self, name, fd):
        self.name_ = name
        self.fd = fd
        # Bytes written through .buffer may split a character between writes: decoded whole.
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        OUTBOX.add(self.name_, text)
        return len(text)

    def fileno(self):
        return self.fd

    @property
    def buffer(self):
        return _BinaryView(self)

    def flush(self):
        OUTBOX.flush()  # print(..., flush=True) means "send it now"

    def isatty(self):
        return False

    def writable(self):
        return True

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "replace"


class _BinaryView:
    """sys.stdout.buffer: bytes written there join the same ordered output."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data):
        self.stream.write(self.stream.decoder.decode(bytes(data)))
        return len(data)

    def flush(self):
        pass


class RawPipe:
    """Forwards what reaches fd 1/2 below Python (C code, subprocesses) and answers sync marks."""

    def __init__(self, name, fd):
        self.name = name
        self.fd = fd
        self.cond = threading.Condition()
        self.seen = set()
        self.pending = b""
        # A read can end inside a character (a subprocess streaming UTF-8): decoded whole.
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def run(self):
        while True:
            data = os.read(self.fd, 65536)
            if not data:
                return
            data = self.pending + data
            self.pending = b""
            marks = re.findall(rb"\x00sidecar-sync-(\d+)\x00", data)
            data = re.sub(rb"\x00sidecar-sync-\d+\x00", b"", data)
            cut = data.rfind(b"\x00sidecar-sync")
            if cut != -1 and cut > len(data) - 32:  # a mark split across reads
                data, self.pending = data[:cut], data[cut:]
            OUTBOX.add(self.name, self.decoder.decode(data))
            if marks:
                with self.cond:
                    self.seen.update(int(m) for m in marks)
                    self.cond.notify_all()

    def sync(self, mark):
        """Waits until everything written to the fd before now has been forwarded."""
        os.write(self.fd_for_writing, b"\x00sidecar-sync-%d\x00" % mark)
        with self.cond:
            self.cond.wait_for(lambda: mark in self.seen, SYNC_WAIT_SECONDS)
            self.seen.discard(mark)


RAW = [RawPipe("stdout", _out_r), RawPipe("stderr", _err_r)]
_sync_marks = iter(range(1, 1 << 62))


def _drain_raw_output():
    """Forwards everything C code and subprocesses wrote so far, so it keeps its place before what follows."""
    mark = next(_sync_marks)
    for pipe in RAW:
        pipe.sync(mark)
    OUTBOX.flush()
RAW[0].fd_for_writing = 1
RAW[1].fd_for_writing = 2
sys.stdout = ProtocolStream("stdout", 1)
sys.stderr = ProtocolStream("stderr", 2)
sys.__stdout__ = sys.stdout
sys.__stderr__ = sys.stderr


# --- the tool bridge -------------------------------------------------------------------------


class ToolError(Exception):
    """A bridged tool call failed (the harness answered with an error)."""


class ToolDenied(ToolError):
    """The harness's guardrails or the operator refused the bridged tool call."""


# Well under the sidecar's 64 Mi-character limit on a kernel message, which drops longer ones.
TOOL_ARGS_MAX_CHARS = 16 * 1024 * 1024

_pending_calls = {}
_pending_lock = threading.Lock()
_call_ids = iter(range(1, 1 << 62))


def tool(name, args=None):
    """Calls one of the harness's tools by name; blocks until it answers."""
    if not isinstance(name, str) or not name:
        raise TypeError("tool(name, args): name must be a tool name string, e.g. tool('read', {'path': 'README.md'})")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise TypeError(f"tool({name!r}, args): args must be a dict of the tool's arguments, not {type(args).__name__}")
    try:
        # NaN and Infinity are not JSON: the sidecar could not read the call, and the cell would wait for ever.
        encoded = json.dumps(args, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise TypeError(f"tool({name!r}, args): args must be JSON-serialisable: {error}") from None
    if len(encoded) > TOOL_ARGS_MAX_CHARS:
        raise ValueError(f"tool({name!r}, args): the arguments are {len(encoded)} characters of JSON; a bridged call takes at most {TOOL_ARGS_MAX_CHARS}. Write large data to a file and pass its path.")
    with _pending_lock:
        call_id = next(_call_ids)
        slot = {"event": threading.Event(), "reply": None}
        _pending_calls[call_id] = slot
    OUTBOX.flush()
    send({"type": "tool_call", "id": call_id, "name": name, "args": args})
    try:
        slot["event"].wait()
    finally:
        with _pending_lock:
            _pending_calls.pop(call_id, None)
    reply = slot["reply"]
    if reply.get("ok"):
        return reply.get("result")
    if reply.get("denied"):
        raise ToolDenied(reply.get("message") or f"the harness denied the {name} call")
    raise ToolError(reply.get("message") or f"the {name} call failed")


async def atool(name, args=None):
    """tool() for async code: several can run at once (asyncio.gather)."""
    import asyncio

    return await asyncio.to_thread(tool, name, args)


def _deliver(reply):
    with _pending_lock:
        slot = _pending_calls.get(reply.get("id"))
    if slot is not None:
        slot["reply"] = reply
        slot["event"].set()


# --- showing values ----------------------------------------------------------------------------

from sidecar_display import figure_png, mime_bundle, shown_figures  # noqa: E402  (embedded, see the prelude)


def display(*values, **_options):
    """Shows each value in the cell's result: tables, images and markdown as they render."""
    _drain_raw_output()
    for value in values:
        send({"type": "display", "data": mime_bundle(value)})


def _silenced(source, node):
    """IPython's convention: a cell whose last expression ends with `;` shows no Out."""
    line = source.splitlines()[node.end_lineno - 1]
    after = line.encode("utf-8")[node.end_col_offset :].decode("utf-8", "replace")  # offsets count UTF-8 bytes
    return after.lstrip().startswith(";")


def _flush_figures():
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    _drain_raw_output()  # what the cell printed before the figure comes before it
    for number in pyplot.get_fignums():
        figure = pyplot.figure(number)
        if id(figure) not in shown_figures:
            send({"type": "display", "data": {"image/png": figure_png(figure), "text/plain": repr(figure)}})
    pyplot.close("all")
    shown_figures.clear()


class _PyplotShowsAtOnce:
    """
    Makes pyplot.show() display the open figures at once. Under Agg it does nothing, so two plots
    shown in one cell came out as one merged image at the cell's end. Patched when pyplot is first
    imported; subprocesses keep plain Agg.
    """

    def find_spec(self, name, path=None, target=None):
        if name != "matplotlib.pyplot":
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run_module = spec.loader.exec_module

        def exec_module(module):
            run_module(module)
            module.show = lambda *args, **kwargs: _flush_figures()

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _PyplotShowsAtOnce())


class _DisplayHook:
    """Routes IPython.display.display (imported by reflex) to this kernel's display()."""

    def find_spec(self, name, path=None, target=None):
        if name != "IPython.core.display_functions":
            return None
        sys.meta_path.remove(self)
        try:
            import importlib.util

            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            module.display = display

        loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _DisplayHook())

# --- running cells -----------------------------------------------------------------------------

_shell = None


def get_ipython():
    """The magics shim, built on first use: sidecar_magics is compiled only when a cell needs it."""
    global _shell
    if _shell is None:
        from sidecar_magics import IPythonShim

        _shell = IPythonShim(NAMESPACE)
        _shell.hidden = KERNEL_NAMES
    return _shell


NAMESPACE = {"__name__": "__main__", "__builtins__": __builtins__}
NAMESPACE.update(display=display, tool=tool, atool=atool, ToolError=ToolError, ToolDenied=ToolDenied, get_ipython=get_ipython)
sys.modules["__main__"] = type(sys)("__main__")
sys.modules["__main__"].__dict__.update(NAMESPACE)
NAMESPACE = sys.modules["__main__"].__dict__
# The kernel's own names (display, tool, get_ipython…): %who and %whos leave them out.
KERNEL_NAMES = frozenset(NAMESPACE)

_loop = None


def _run(code):
    global _loop
    result = eval(code, NAMESPACE)
    if code.co_flags & 0x80:  # CO_COROUTINE: the cell used top-level await
        import asyncio

        if _loop is None:
            _loop = asyncio.new_event_loop()
            asyncio.set_event_loop(_loop)
        result = _loop.run_until_complete(result)
    return result


def _trimmed_traceback(error):
    import traceback

    if isinstance(error, SyntaxError) and error.__traceback__ is not None and _is_cell_compile(error):
        return "".join(traceback.format_exception_only(type(error), error))
    tb = error.__traceback__
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith("<cell "):
        tb = tb.tb_next
    summary = traceback.TracebackException(type(error), error, tb if tb is not None else error.__traceback__)
    # The driver's own frames (tool(), the magics shim) say nothing about the user's code.
    summary.stack = traceback.StackSummary.from_list([f for f in summary.stack if f.filename not in DRIVER_FILES])
    return "".join(summary.format())


def _is_cell_compile(error):
    return (error.filename or "").startswith("<cell ")


def run_cell(message):
    count = message["count"]
    source = message["code"]
    filename = f"<cell {count}>"
    status = "ok"
    started = time.perf_counter()
    OUTBOX.cell_running = True
    try:
        flags = ast.PyCF_ONLY_AST | getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
        try:
            tree = compile(source, filename, "exec", flags)
        except SyntaxError:
            from sidecar_magics import transform_cell

            rewritten = transform_cell(source)
            if rewritten is None:
                raise
            source = rewritten
            tree = compile(source, filename, "exec", flags)
        # Each line ends with a newline, as a file's do: without it Python 3.11 put the caret under
        # the cell's last line one column right of the failing expression.
        lines = [line if line.endswith("\n") else line + "\n" for line in source.splitlines(True)]
        linecache.cache[filename] = (len(source), None, lines, filename)
        body = tree.body
        last = body.pop() if body and isinstance(body[-1], ast.Expr) else None
        await_flag = getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
        if body:
            _run(compile(ast.Module(body=body, type_ignores=[]), filename, "exec", await_flag))
        if last is not None:
            value = _run(compile(ast.Expression(body=last.value), filename, "eval", await_flag))
            if value is not None and not _silenced(source, last):
                NAMESPACE["_"] = value
                NAMESPACE[f"_{count}"] = value
                _drain_raw_output()
                send({"type": "display", "data": mime_bundle(value), "result": True})
        _flush_figures()
    except KeyboardInterrupt as error:
        status = "interrupted"
        _drain_raw_output()
        send({"type": "error", "ename": "KeyboardInterrupt", "evalue": "", "traceback": _trimmed_traceback(error)})
    except BaseException as error:  # noqa: BLE001  (SystemExit in a cell must not end the kernel)
        status = "error"
        _drain_raw_output()
        send({"type": "error", "ename": type(error).__name__, "evalue": str(error), "traceback": _trimmed_traceback(error)})
        # A figure the failed cell drew is shown with its error, not in the next, unrelated cell.
        try:
            _flush_figures()
        except Exception:  # noqa: BLE001  (a figure that cannot render must not hide the cell's error)
            pass
    finally:
        elapsed = time.perf_counter() - started
    _drain_raw_output()
    OUTBOX.cell_running = False
    send({"type": "done", "id": message["id"], "count": count, "status": status, "seconds": elapsed})


def _read_protocol(cells):
    buffer = b""
    while True:
        data = os.read(PROTO_IN, 65536)
        if not data:
            # The sidecar went away: nothing can read our answers, so end rather than linger.
            os._exit(0)
        buffer += data
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if not line.strip():
                continue
            message = json.loads(line)
            if message.get("type") == "tool_result":
                _deliver(message)
            else:
                cells.put(message)


def main():
    cells = SimpleQueue()
    for pipe in RAW:
        threading.Thread(target=pipe.run, daemon=True, name=f"sidecar-{pipe.name}").start()
    threading.Thread(target=_flusher, daemon=True, name="sidecar-outbox").start()
    threading.Thread(target=_read_protocol, args=(cells,), daemon=True, name="sidecar-protocol").start()
    version = sys.version.split()[0]
    send({"type": "ready", "interpreter": sys.executable, "version": f"Python {version}", "pid": os.getpid()})
    while True:
        try:
            message = cells.get()
            if message.get("type") == "execute":
                run_cell(message)
        except KeyboardInterrupt:
            continue  # an interrupt that arrived between cells has nothing to stop


try:
    main()
except BaseException as fatal:  # noqa: BLE001
    os.write(DIAG, f"sidecar kernel driver failed: {type(fatal).__name__}: {fatal}\n".encode())
    os._exit(70)
