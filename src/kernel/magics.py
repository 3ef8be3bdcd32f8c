# IPython idioms for the sidecar's Python kernel: rewriting %magics and !commands into plain code,
# and the small get_ipython() shim that rewritten code calls. Loaded as module `sidecar_magics`.
import os
import re
import sys

# subprocess and shlex load on first use: most kernels never run a magic, and start-up counts.

# Magics this shim runs; anything else is refused with this list, not silently ignored.
LINE_MAGICS = ("pip", "cd", "timeit", "time", "env", "pwd", "run", "who", "whos", "matplotlib", "load_ext", "autoreload")
CELL_MAGICS = ("bash", "sh", "timeit", "time")
MAGIC_LINE = re.compile(r"^\s*(%|!)|=\s*[!%]\w", re.M)


def transform_cell(source):
    """The cell with IPython syntax rewritten, or None when it has none (a plain syntax error)."""
    if not MAGIC_LINE.search(source):
        return None
    if os.environ.get("SIDECAR_KERNEL_IPYTHON") != "0":
        try:
            from IPython.core.inputtransformer2 import TransformerManager
        except Exception:
            TransformerManager = None
        if TransformerManager is not None:
            return TransformerManager().transform_cell(source)
    return fallback_transform(source)


_ASSIGN_SYSTEM = re.compile(r"^(\s*)([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*!(.*)$")
_ASSIGN_MAGIC = re.compile(r"^(\s*)([A-Za-z_][\w.]*)\s*=\s*%(\w+)\s*(.*)$")
_SYSTEM = re.compile(r"^(\s*)!(.*)$")
_MAGIC = re.compile(r"^(\s*)%(\w+)\s*(.*)$")


def fallback_transform(source):
    """Without IPython: rewrites %%cell, %line, !cmd, x = !cmd and x = %line into shim calls."""
    lines = source.splitlines()
    if lines and lines[0].startswith("%%"):
        name, _, line = lines[0][2:].partition(" ")
        body = "\n".join(lines[1:]) + "\n"
        return f"get_ipython().run_cell_magic({name!r}, {line.strip()!r}, {body!r})\n"
    out = []
    for text in lines:
        match = _ASSIGN_SYSTEM.match(text)
        if match:
            indent, target, command = match.groups()
            out.append(f"{indent}{target} = get_ipython().getoutput({command.strip()!r})")
            continue
        match = _ASSIGN_MAGIC.match(text)
        if match:
            indent, target, name, line = match.groups()
            out.append(f"{indent}{target} = get_ipython().run_line_magic({name!r}, {line.strip()!r})")
            continue
        match = _SYSTEM.match(text)
        if match:
            indent, command = match.groups()
            out.append(f"{indent}get_ipython().system({command.strip()!r})")
            continue
        match = _MAGIC.match(text)
        if match:
            indent, name, line = match.groups()
            out.append(f"{indent}get_ipython().run_line_magic({name!r}, {line.strip()!r})")
            continue
        out.append(text)
    return "\n".join(out) + "\n"


class SList(list):
    """The list of lines `x = !cmd` gives, with IPython's .s / .n / .l views."""

    @property
    def s(self):
        return " ".join(self)

    @property
    def n(self):
        return "\n".join(self)

    @property
    def l(self):  # noqa: E743
        return list(self)


_BRACED = re.compile(r"(?<!\{)\{([^{}]+)\}(?!\})")
_DOLLAR = re.compile(r"(?<!\$)\$([A-Za-z_]\w*)")


class IPythonShim:
    """Just enough of InteractiveShell for rewritten cells: magics, system, getoutput."""

    def __init__(self, namespace):
        self.namespace = namespace
        # The kernel's own names (display, tool, get_ipython…): %who and %whos leave them out.
        self.hidden = frozenset()

    @property
    def user_ns(self):
        return self.namespace

    def expand(self, text):
        """IPython's {expr} and $name expansion, evaluated in the kernel's namespace."""

        def braced(match):
            try:
                return str(eval(match.group(1), self.namespace))
            except Exception:
                return match.group(0)

        def dollar(match):
            name = match.group(1)
            return str(self.namespace[name]) if name in self.namespace else match.group(0)

        text = _BRACED.sub(braced, text)
        text = _DOLLAR.sub(dollar, text)
        return text.replace("$$", "$")

    var_expand = expand

    def system(self, command):
        import subprocess

        sys.stdout.flush()
        code = subprocess.call(self.expand(command), shell=True)
        self.namespace["_exit_code"] = code
        return None

    def getoutput(self, command, split=True):
        import subprocess

        done = subprocess.run(self.expand(command), shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = done.stdout.decode("utf-8", "replace")
        self.namespace["_exit_code"] = done.returncode
        return SList(text.splitlines()) if split else text

    def run_line_magic(self, name, line, _stack_depth=1):
        handler = getattr(self, f"_line_{name}", None)
        if handler is None:
            raise NameError(
                f"%{name} is not supported in this kernel; supported line magics: "
                + ", ".join(f"%{m}" for m in LINE_MAGICS)
                + ", plus !command and x = !command"
            )
        return handler(self.expand(line))

    def run_cell_magic(self, name, line, cell):
        handler = getattr(self, f"_cell_{name}", None)
        if handler is None:
            raise NameError(
                f"%%{name} is not supported in this kernel; supported cell magics: " + ", ".join(f"%%{m}" for m in CELL_MAGICS)
            )
        return handler(self.expand(line), cell)

    # --- line magics ---

    def _line_pwd(self, _line):
        return os.getcwd()

    def _line_env(self, line):
        if not line:
            return dict(os.environ)
        name, sep, value = line.replace("=", " ", 1).partition(" ")
        if sep:
            os.environ[name] = value.strip()
            print(f"env: {name}={value.strip()}")
            return None
        return os.environ.get(name)

    def _line_cd(self, line):
        target = os.path.expanduser(line.strip().strip("'\"") or "~")
        os.chdir(target)
        print(os.getcwd())

    def _line_pip(self, line):
        import shlex
        import subprocess

        args = shlex.split(line)
        sys.stdout.flush()
        # No network check for a newer pip: a kernel may be offline, and the check is noise in a cell.
        env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
        # Through the shell, as IPython runs it: `%pip list | grep pandas` pipes pip's output, where
        # pip itself read `-i pandas` as an index URL.
        code = subprocess.call(f"{shlex.quote(sys.executable)} -m pip {line}", shell=True, env=env)
        if code != 0:
            print(f"pip exited with status {code}", file=sys.stderr)
            return None
        if args and args[0] in ("install", "uninstall"):
            evicted = evict_modules(requirement_names(args[1:]))
            if evicted:
                print(f"Evicted {len(evicted)} module(s) from sys.modules ({', '.join(sorted(evicted)[:8])}); the next import loads what is installed now.")
        return None

    def _line_time(self, line):
        import time

        started = time.perf_counter()
        try:
            return eval(compile(line, "<%time>", "eval"), self.namespace)
        except SyntaxError:
            exec(compile(line, "<%time>", "exec"), self.namespace)
        finally:
            print(f"Wall time: {_format_seconds(time.perf_counter() - started)}")

    def _line_run(self, line):
        """Runs a script as __main__ with its arguments; its top-level names land in the namespace, as in IPython."""
        import runpy
        import shlex

        args = shlex.split(line)
        if not args:
            raise ValueError("%run needs a script: %run file.py [args]")
        path = os.path.expanduser(args[0])
        if not os.path.isfile(path):
            raise FileNotFoundError(f"%run: no file {path!r} (relative to {os.getcwd()})")
        saved = sys.argv
        sys.argv = [path, *args[1:]]
        try:
            names = runpy.run_path(path, run_name="__main__")
        finally:
            sys.argv = saved
        self.namespace.update({name: value for name, value in names.items() if not name.startswith("__")})

    def _user_names(self):
        return sorted(name for name in self.namespace if not name.startswith("_") and name not in self.hidden)

    def _line_who(self, _line):
        names = self._user_names()
        print("\t".join(names) if names else "Interactive namespace is empty.")

    def _line_whos(self, _line):
        names = self._user_names()
        if not names:
            print("Interactive namespace is empty.")
            return
        rows = [(name, type(self.namespace[name]).__name__, _brief(self.namespace[name])) for name in names]
        width = [max(len(row[i]) for row in rows + [("Variable", "Type", "Data/Info")]) for i in range(2)]
        print(f"{'Variable':<{width[0]}}   {'Type':<{width[1]}}   Data/Info")
        print("-" * (width[0] + width[1] + 18))
        for name, kind, info in rows:
            print(f"{name:<{width[0]}}   {kind:<{width[1]}}   {info}")

    def _line_matplotlib(self, line):
        # Harmless: figures already come back as PNG images (Agg backend), at plt.show() or the cell's end.
        print(f"%matplotlib {line}".rstrip() + ": nothing to do here; figures are returned as PNG images at plt.show() or the end of the cell.")

    def _line_load_ext(self, line):
        name = line.strip()
        if name == "autoreload":
            print("%load_ext autoreload: not loaded (this kernel is not IPython). After editing a module, "
                  "importlib.reload(module) or eval with reset: true loads the new code.")
            return
        raise NameError(f"%load_ext {name}: IPython extensions do not load in this kernel (it is not IPython); import the module instead.")

    def _line_autoreload(self, line):
        print(f"%autoreload {line}".rstrip() + ": modules are not reloaded automatically here; "
              "importlib.reload(module) or eval with reset: true loads edited code.")

    def _line_timeit(self, line):
        options, statement = _timeit_options(line)
        return _timeit(statement, "pass", options, self.namespace)

    # --- cell magics ---

    def _cell_bash(self, line, cell):
        import shlex
        import subprocess

        sys.stdout.flush()
        code = subprocess.run(["bash", *shlex.split(line)], input=cell.encode()).returncode
        self.namespace["_exit_code"] = code
        if code != 0:
            print(f"bash exited with status {code}", file=sys.stderr)

    def _cell_sh(self, line, cell):
        import shlex
        import subprocess

        sys.stdout.flush()
        code = subprocess.run(["sh", *shlex.split(line)], input=cell.encode()).returncode
        self.namespace["_exit_code"] = code

    def _cell_time(self, line, cell):
        """Times the cell; its last expression's value is the cell's value, as without %%time."""
        import ast
        import time

        tree = ast.parse(cell, "<%%time>")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        started = time.perf_counter()
        try:
            exec(compile(tree, "<%%time>", "exec"), self.namespace)
            if last is not None:
                return eval(compile(ast.Expression(body=last.value), "<%%time>", "eval"), self.namespace)
            return None
        finally:
            print(f"Wall time: {_format_seconds(time.perf_counter() - started)}")

    def _cell_timeit(self, line, cell):
        options, setup = _timeit_options(line)
        return _timeit(cell, setup or "pass", options, self.namespace)


def _brief(value):
    """%whos's Data/Info: a value's repr on one line, cut at 60 characters."""
    try:
        text = " ".join(repr(value).split())
    except Exception:  # noqa: BLE001  (a broken __repr__ must not fail %whos)
        text = "<unprintable>"
    return text if len(text) <= 60 else text[:59] + "…"


def _timeit_options(line):
    options = {}
    words = line.split()
    while words and re.fullmatch(r"-[nr]\d*", words[0]):
        flag = words.pop(0)
        value = flag[2:] or (words.pop(0) if words else "")
        options[flag[1]] = int(value)
    return options, " ".join(words)


def _timeit(statement, setup, options, namespace):
    import timeit

    timer = timeit.Timer(statement, setup, globals=namespace)
    number = options.get("n") or timer.autorange()[0]
    repeat = options.get("r", 7)
    runs = [t / number for t in timer.repeat(repeat=repeat, number=number)]
    mean = sum(runs) / len(runs)
    spread = (sum((r - mean) ** 2 for r in runs) / len(runs)) ** 0.5
    print(
        f"{_format_seconds(mean)} ± {_format_seconds(spread)} per loop "
        f"(mean ± std. dev. of {repeat} run{'s' if repeat != 1 else ''}, {number} loop{'s' if number != 1 else ''} each)"
    )


def _format_seconds(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


# pip options that take a value: their value is not a requirement.
_VALUE_OPTIONS = {"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t", "--target", "-i", "--index-url",
                  "--extra-index-url", "-f", "--find-links", "--prefix", "--root", "--platform", "--python-version",
                  "--implementation", "--abi", "--upgrade-strategy", "--progress-bar", "--src", "--cache-dir"}


def requirement_names(args):
    """Distribution names named by pip arguments: requirements, wheel and sdist files, directories."""
    names = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg.startswith("-"):
            skip = arg in _VALUE_OPTIONS
            continue
        base = os.path.basename(arg.rstrip("/"))
        if arg.endswith(".whl"):
            names.append(base.split("-")[0])
        elif re.search(r"\.(tar\.gz|zip|tar\.bz2)$", arg):
            names.append(re.sub(r"-[^-]*\.(tar\.gz|zip|tar\.bz2)$", "", base))
        elif os.path.isdir(arg):
            names.append(base)
        else:
            match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", arg)
            if match:
                names.append(match.group(0))
    return names


def _normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def evict_modules(distributions):
    """Drops the distributions' modules from sys.modules so the next import reads the new files."""
    import importlib

    importlib.invalidate_caches()
    wanted = {_normal(d) for d in distributions}
    if not wanted:
        return []
    top_levels = {d.replace("-", "_") for d in wanted}
    try:
        from importlib.metadata import packages_distributions

        for module, dists in packages_distributions().items():
            if any(_normal(d) in wanted for d in dists):
                top_levels.add(module)
    except Exception:
        pass
    evicted = [m for m in list(sys.modules) if m.split(".")[0] in top_levels]
    for module in evicted:
        del sys.modules[module]
    return evicted
