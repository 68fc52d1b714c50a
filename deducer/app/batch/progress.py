"""A progress bar on stderr for batch runs: done/total, rate, elapsed and time left.

Drawn only when asked (the commands ask when stderr is a terminal). Refreshed by the caller
at every result and heartbeat instead of by rich's own thread, so that no thread is running
when the pool forks a worker.
"""

from __future__ import annotations

import sys
import time


class Bar:
    """``Bar(total, enabled)``; call it with the number done; ``close()`` at the end."""

    def __init__(self, total: int, enabled: bool, what: str = "rating"):
        self.bar = None
        if not enabled or total <= 0:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.text import Text

        class Rate(ProgressColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed
                return Text("  -  /s" if speed is None else f"{speed:6.1f}/s")

        self.what = what
        # the words are data (a puzzle's progress), never rich markup
        self.bar = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                            MofNCompleteColumn(), Rate(), TimeElapsedColumn(), "left",
                            TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True,
                            auto_refresh=False, speed_estimate_period=60)
        self.task = self.bar.add_task(what, total=total)
        self.bar.start()
        self.drawn = 0.0

    def __call__(self, done: int) -> None:
        if self.bar is None:
            return
        if done != self.bar.tasks[0].completed:  # an item done: its words are over
            self.bar.update(self.task, description=self.what)
        self.bar.update(self.task, completed=done)
        now = time.monotonic()
        if now - self.drawn >= 0.1:  # a redraw costs more than rating a tiny puzzle
            self.drawn = now
            self.bar.refresh()

    def describe(self, text: str) -> None:
        """Words beside the bar (how the item in hand goes), until the next item is done."""
        if self.bar is None:
            return
        self.bar.update(self.task, description=f"{self.what}: {text}")
        self.bar.refresh()

    def say(self, line: str) -> None:
        """A line on stderr above the bar (printed through the bar, which stays drawn)."""
        if self.bar is None:
            print(line, file=sys.stderr)
        else:
            self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
