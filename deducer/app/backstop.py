"""The ``--timeout`` backstop and Ctrl-C: what stops a running command whatever its code
does (a user rule that loops, a check with its own budget), and what the commands ask it
(:func:`time_left` for the API call, :func:`answer_in_hand` once they have it). Signals
are used only when deducer is the program (:data:`PROGRAM`), in its main thread, on POSIX.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time

from .. import clock
from .exits import EXIT_UNDECIDED, STOPPED

#: how long past ``--timeout`` the backstop waits for a command's own graceful stop, and
#: how much longer for a stop that was swallowed, both in seconds of the command's own CPU
#: time (together: within a second on an idle machine). A loaded machine stretches the
#: command's own stop in wall time; a grace counted in wall time then fired first, and the
#: answer the time limit was there to deliver was lost
GRACE, HARD_AFTER = 0.7, 0.25
#: the wall-clock bound on each grace, whatever happens (a rule that sleeps or blocks uses
#: no CPU time)
WALL_GRACE = 10.0
#: once a command has its answer (the API returned, cut short or not), the CPU seconds the
#: backstop leaves for printing it: deducer's own renderers, no rule runs any more
PRINT_GRACE = 5.0
#: the least time an API call gets, however little of ``--timeout`` reading left: enough
#: to return what it has (a timed-out answer) instead of nothing
MIN_LEFT = 0.05


class TimeLimit(BaseException):
    """The hard stop of ``--timeout`` (a BaseException, so that no rule's ``except
    Exception`` can swallow it)."""


#: is deducer the program (the `deducer` command, `python -m deducer`)? Only then does the
#: backstop use signals: a caller's process (a test calling main()) keeps its own
PROGRAM = {"on": False}


def _hard_stop(signum, frame):  # the first stop was swallowed (a rule caught it): end now
    if _CLOCK["phase"] != "stopping":
        return  # a signal that was on its way as the timers were disarmed
    try:
        sys.stdout.flush()
    except Exception:
        pass
    os.write(2, STOPPED.encode())
    os._exit(EXIT_UNDECIDED)


#: sections the backstop must not interrupt midway (depth), and a stop held off meanwhile
_SHIELD = {"depth": 0, "pending": False}

#: the running command's ``--timeout``: when it runs out (a ``time.perf_counter()``
#: reading), and where the backstop is: None (not armed), "work" (the limit has not come),
#: "grace" (past it: the command's own stop is awaited), "printing" (the answer is in
#: hand), "stopping" (TimeLimit raised: the hard stop is next)
_CLOCK: dict = {"deadline": None, "seconds": None, "phase": None}


def _timers(handler, cpu: float | None, wall: float | None) -> None:
    """Arm the backstop's next move: ``handler`` after ``cpu`` seconds of this process's
    CPU time or ``wall`` seconds, whichever comes first (None: not that timer)."""
    import signal

    for sig, which, after in ((signal.SIGPROF, signal.ITIMER_PROF, cpu),
                              (signal.SIGALRM, signal.ITIMER_REAL, wall)):
        signal.setitimer(which, 0)
        if after is not None:
            signal.signal(sig, handler)
            signal.setitimer(which, max(0.001, after))


def _past_deadline(signum, frame):
    """The limit has come: the command stops by itself, given ``GRACE`` of CPU time."""
    if _CLOCK["phase"] != "work":
        return
    _CLOCK["phase"] = "grace"
    _timers(_raise_time_limit, GRACE, WALL_GRACE)


def _raise_time_limit(signum, frame):
    if _CLOCK["phase"] not in ("grace", "printing"):
        return
    _CLOCK["phase"] = "stopping"
    _timers(_hard_stop, HARD_AFTER, WALL_GRACE)
    if _SHIELD["depth"]:
        _SHIELD["pending"] = True  # raised when the section ends (or the hard stop comes)
        return
    raise TimeLimit()


@contextlib.contextmanager
def shielded():
    """Hold the ``--timeout`` backstop's exception off a section that calls into a C library
    with Python callbacks (cairo writing a PNG or PDF): raised inside a callback it is
    printed as a traceback and swallowed, and the library then fails with an error of its
    own. The stop comes at the end of the section, or as the hard stop, within a second."""
    _SHIELD["depth"] += 1
    try:
        yield
    finally:
        _SHIELD["depth"] -= 1
    if not _SHIELD["depth"] and _SHIELD["pending"]:
        _SHIELD["pending"] = False
        raise TimeLimit()


def process_age() -> float:
    """Seconds since this process started (Linux; 0 elsewhere): a command's ``--timeout``
    counts from its launch, the interpreter's start and imports included."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            stat = fh.read()
        with open("/proc/uptime", "rb") as fh:
            uptime = float(fh.read().split()[0])
        ticks = int(stat[stat.rindex(b")") + 2:].split()[19])  # field 22: starttime
        return min(10.0, max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK")))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def time_left(floor: float = MIN_LEFT) -> float | None:
    """What is left of the running command's ``--timeout``, in seconds, for the API call
    about to start (None: no time limit). The clock started with the command, so reading
    the puzzle and the rules count: the API's deadline falls on the command's, and the
    backstop's grace is left for the answer. At least ``floor``: a call starting late still
    gets a moment to return what it has (never more than the whole limit)."""
    deadline = _CLOCK["deadline"]
    if deadline is None:
        return None

    left = max(min(floor, _CLOCK["seconds"]), deadline - time.perf_counter())
    if _CLOCK["phase"] == "grace":
        # the limit came while the command started or read its input (a loaded machine
        # stretches both): the command's own stop is this call's, so its grace starts now
        # (a grace spent on imports and reading left the call no time to return its answer)
        _timers(_raise_time_limit, GRACE + left, WALL_GRACE)
    return left


def stretch() -> float:
    """Wall seconds a CPU second has taken this process so far: about 1 on an idle core,
    more when the machine is loaded (at most 10). A command that keeps CPU time for work
    after its API call (drawing a page) scales its estimate by this to meet ``--timeout``,
    which counts wall time. 1 when deducer is not the program (no launch time to go by)."""

    cpu = time.process_time()
    age = process_age() if PROGRAM["on"] else 0.0
    if cpu <= 0 or age <= 0:
        return 1.0
    return min(10.0, max(1.0, age / cpu))


def answer_in_hand() -> None:
    """The command has its answer (the API returned; the time limit may have cut it short):
    from now the backstop leaves ``PRINT_GRACE`` seconds of CPU time for printing it (the
    renderers only, no rule). Cut short, the answer the time limit was for is lost."""
    if _CLOCK["phase"] in ("work", "grace"):
        _CLOCK["phase"] = "printing"
        _timers(_raise_time_limit, PRINT_GRACE, None)


@contextlib.contextmanager
def time_limit(seconds: float | None, started: float | None = None):
    """Stop the work inside soon after ``seconds`` (counted from ``started``, a
    ``time.perf_counter()`` reading; default now), whatever it does.

    The commands honour ``--timeout`` themselves (they pass the API :func:`time_left`) and
    report how far they got; this is the backstop for code that does not look at the clock
    (a user rule that loops, a check with its own budget). Once the limit has come and the
    command has spent ``GRACE`` more seconds of CPU time (a loaded machine stretches that
    in wall time as it stretches the command's own stop) or ``WALL_GRACE`` seconds, it
    raises :class:`TimeLimit` from a signal handler; if that is swallowed (a rule catching
    BaseException), ``HARD_AFTER`` seconds of CPU time later the process ends with exit
    code 4. Once the command has its answer (:func:`answer_in_hand`) it waits for the
    printing. The signals only when deducer is the program, in its main thread, on POSIX;
    elsewhere only :func:`time_left` counts down.
    """

    if seconds is None or not 0 < seconds < 1e8:
        yield
        return
    start = time.perf_counter() if started is None else started
    outer = dict(_CLOCK)
    _CLOCK.update(deadline=start + seconds, seconds=seconds, phase=None)
    try:
        import signal  # here: only a command with a time limit pays for them
        import threading

        if (not PROGRAM["on"] or not hasattr(signal, "setitimer")
                or not hasattr(signal, "SIGPROF")
                or threading.current_thread() is not threading.main_thread()):
            yield
            return
        old = {sig: signal.getsignal(sig) for sig in (signal.SIGALRM, signal.SIGPROF)}
        _CLOCK["phase"] = "work"
        _timers(_past_deadline, None, start + seconds - time.perf_counter())
        try:
            yield
        finally:
            _CLOCK["phase"] = None
            for sig, which in ((signal.SIGALRM, signal.ITIMER_REAL),
                               (signal.SIGPROF, signal.ITIMER_PROF)):
                signal.setitimer(which, 0)
                signal.signal(sig, old[sig])
    finally:
        _CLOCK.update(outer)


@contextlib.contextmanager
def ctrl_c_stops_the_work():
    """Inside, a first Ctrl-C asks the work to stop where it is (:func:`clock.ask_stop`),
    as a time limit would; a second one raises KeyboardInterrupt (a rule that looks at no
    clock). Only in the main thread."""
    import signal
    import threading

    clock.clear_stop()
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum, frame):
        if clock.stop_asked():
            raise KeyboardInterrupt
        clock.ask_stop()

    old = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        clock.clear_stop()


@contextlib.contextmanager
def interruptible():
    """Ctrl-C as a request to stop, not an exception: inside, SIGINT sets a flag the
    caller's loop looks at (the callable yielded says whether it came), so that the work
    finished so far is kept and printed whatever line was running; a second Ctrl-C raises
    KeyboardInterrupt as usual. Only in the main thread (elsewhere the flag never rises)."""
    import signal
    import threading

    came = {"on": False}
    if threading.current_thread() is not threading.main_thread():
        yield lambda: came["on"]
        return

    def on_sigint(signum, frame):
        if came["on"]:
            raise KeyboardInterrupt
        came["on"] = True

    old = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield lambda: came["on"]
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def ctrl_c_as_usual():
    """While the command runs, Ctrl-C is Python's KeyboardInterrupt, which the commands
    handle (or their own handlers); before and after, deducer's start-up handler (see
    ``deducer/__init__.py``: a Ctrl-C while Python imports the package and the command's
    modules says ``deducer: interrupted`` and exits 130, never a traceback)."""
    import signal

    from .. import _interrupted_while_starting as early

    if signal.getsignal(signal.SIGINT) is not early:  # not the program, or SIGINT ignored
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, early)  # the answer is printed: exiting is all left
