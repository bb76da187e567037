# tests/lib/rapltree.py - what tests/tools/rapltree drew, for the checks
# of a logger's energy against it (tests/sh/record.sh).
#
# steps: rapltree's stdout, "UNIX_SECONDS WATTS" at each change of power
# (it starts at the idle power); stalls: its --stalls file, "START END"
# (unix seconds) for each time it was starved of CPU and its counters
# held their value.


class Tree:
    def __init__(self, steps, stalls, idle_w, busy_w):
        self.wi, self.wl = idle_w, busy_w
        self.steps = [(float(t) * 1000, float(w)) for t, w in (l.split() for l in open(steps))]
        self.stalls = [(float(a) * 1000, float(b) * 1000) for a, b in (l.split() for l in open(stalls))]

    def drawn(self, a, b):
        """Joules the package drew over [a, b] ms."""
        e, p, t = 0.0, self.wi, a
        for ts, w in self.steps:
            if ts > t and ts < b:
                e += p * (ts - t) / 1000
                t = ts
            if ts <= b:
                p = w
        return e + p * (b - t) / 1000

    def lag_j(self, a, b, reach_ms=200):
        """Joules a logger's energy over [a, b] ms may be off by because of
        the tree, not the logger: a reading taken while the tree stalled
        holds the value of the stall's start, and the readings that place
        a window's end are those within a logger interval or two of it
        (reach_ms).  A reading at r in a stall [s0, s1] is short by the
        energy of r - s0: at most the busy power from the stall's start
        to the last reading that counts."""
        lag = 0.0
        for x in (a, b):
            for s0, s1 in self.stalls:
                if s1 > x - reach_ms and s0 < x + reach_ms:
                    lag += (min(s1, x + reach_ms) - s0) / 1000 * self.wl
        return lag
