"""Hostile calls on a bound class, each class checked in its own interpreter (/usr/bin/python3,
or $PYTHON as ctest sets it), so that an abort or a segmentation fault fails the test instead
of ending pytest. Used by test_lasca.py and test_torneio.py.

check_class(prelude, cls, make, pickles) runs, in a new interpreter:
  1. pickling in every protocol (0..HIGHEST_PROTOCOL) of make()'s object (skipped when make is
     None): a class that pickles gives back an equal object (its state, compared recursively);
     one that does not raises TypeError, in every protocol alike;
  2. every method, property and operator of the class, called on an object made by
     cls.__new__(cls) without __init__ with plausible arguments: each one bound in C++ raises
     an exception (its static methods may also work; those the lasca package adds in Python may
     work too, as long as nothing dies), and pickling such an object raises TypeError.
Each step is printed before it runs: a test that fails by a signal names the call that died.
"""
import os
import signal
import subprocess

PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")

_SCRIPT = r'''
import inspect
import pickle

{prelude}

cls = {cls}
make = {make}
PICKLES = {pickles}
# Arguments a caller could plausibly pass: none, a number, a move, a seat and a text, a list.
ARGS = [(), (1,), ("c3-d4",), (0, "x"), (1, "c3-d4"), ([],), ({{}},), (None,)]
# The constructors, which fill an object made by __new__ (that is their work).
CONSTRUCTORS = {{"__init__", "__new__", "__setstate__"}}


def native(function):
    """Whether a method or a property's getter is bound in C++ (pybind11), not Python."""
    return type(function).__name__ in ("instancemethod", "builtin_function_or_method")


def step(text):
    print(text, flush=True)


def plain(value):
    """A bound object as its class name and pickled state, recursively; other values as they are."""
    if type(value).__module__ == cls.__module__ and hasattr(value, "__getstate__"):
        return (type(value).__name__, plain(value.__getstate__()))
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


if make is not None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        step(f"pickle protocol {{protocol}}")
        original = make()
        try:
            data = pickle.dumps(original, protocol=protocol)
        except TypeError:
            assert not PICKLES, f"protocol {{protocol}}: TypeError for a class that pickles"
            continue
        assert PICKLES, f"protocol {{protocol}}: pickled a class that does not pickle"
        again = pickle.loads(data)
        assert type(again) is type(original) and plain(again) == plain(original), protocol

for name, member in sorted(vars(cls).items()):
    if name in CONSTRUCTORS:
        continue
    if isinstance(member, property):
        step(f"get {{name}}")
        try:
            getattr(cls.__new__(cls), name)
        except Exception:
            pass
        else:
            assert not native(member.fget), f"{{name}} read an object made without __init__"
        if member.fset is not None:
            for value in [1, "c3-d4", [], None]:
                step(f"set {{name}} = {{value!r}}")
                try:
                    setattr(cls.__new__(cls), name, value)
                except Exception:
                    pass
                else:
                    raise AssertionError(f"{{name}} set on an object made without __init__")
        continue
    if not callable(getattr(cls, name, None)):
        continue
    static = isinstance(member, staticmethod)
    for args in ARGS:
        step(f"{{name}}{{args!r}}")
        target = cls if static else cls.__new__(cls)
        try:
            getattr(target, name)(*args)
        except Exception:
            continue
        assert static or not native(member), \
            f"{{name}}{{args!r}} ran on an object made without __init__"

for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
    step(f"pickle an object made without __init__, protocol {{protocol}}")
    try:
        pickle.dumps(cls.__new__(cls), protocol=protocol)
    except TypeError:
        continue
    raise AssertionError(f"pickled an object made without __init__ (protocol {{protocol}})")
print("DONE", flush=True)
'''


def check_class(prelude, cls, make, pickles):
    """Runs the checks above on class `cls` (an expression after `prelude`); `make` is an
    expression of a function giving a well-made object, or None. Fails with the last step
    printed and the signal's name when the interpreter dies."""
    code = _SCRIPT.format(prelude=prelude, cls=cls, make=make, pickles=pickles)
    run = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=300)
    if run.returncode < 0:
        last = run.stdout.strip().splitlines()[-1:] or ["(before the first step)"]
        died = signal.Signals(-run.returncode).name
        raise AssertionError(f"{cls}: the interpreter died by {died} at: {last[0]}\n"
                             f"{run.stderr[-2000:]}")
    assert run.returncode == 0 and run.stdout.rstrip().endswith("DONE"), \
        f"{cls}:\n{run.stdout[-1000:]}\n{run.stderr[-3000:]}"
