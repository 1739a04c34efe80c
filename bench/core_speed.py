"""How fast each core of this machine runs, sampled while the benchmarks run.

This machine's cores are virtual, and the host slows each of them by up to 3× from one second
to the next, with nothing of ours running (other machines share its physical cores; the kernel
counts none of it as stolen time). A server row is only comparable with another when both ran
at the same speed, so every row says what speed it ran at.

One thread per core, pinned to it, times a fixed loop of Python every 100 ms: 20,000 steps,
about 1 ms, in the thread's own CPU time (so waiting for the core is not counted, only how fast
the core runs once it has the thread). Cost: about 1% of each core.
"""

import os
import statistics
import threading
import time

STEPS = 20_000
INTERVAL = 0.1


class CoreSpeed:
    def __init__(self):
        self.cores = sorted(os.sched_getaffinity(0))
        self.samples = {core: [] for core in self.cores}  # core → [(monotonic time, ns per step)]
        self.stopped = threading.Event()
        self.threads = [threading.Thread(target=self._sample, args=(core,), daemon=True) for core in self.cores]

    def start(self):
        for thread in self.threads:
            thread.start()
        return self

    def stop(self):
        self.stopped.set()
        for thread in self.threads:
            thread.join()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _sample(self, core):
        os.sched_setaffinity(0, {core})  # 0: this thread, on Linux
        while not self.stopped.wait(INTERVAL):
            start = time.thread_time_ns()
            x = 0
            for i in range(STEPS):
                x += i
            self.samples[core].append((time.monotonic(), (time.thread_time_ns() - start) / STEPS))

    def during(self, start, end):
        """The median ns per step of each core between two `time.monotonic()` readings."""
        return [statistics.median([ns for t, ns in self.samples[core] if start <= t <= end] or [float("nan")])
                for core in self.cores]


def describe(speeds):
    """`38 / 41`: ns per step, core by core (lower is faster)."""
    return " / ".join("—" if ns != ns else f"{ns:.0f}" for ns in speeds)
