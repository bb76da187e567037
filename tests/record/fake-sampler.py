#!/usr/bin/env python3
# tests/record/fake-sampler.py - stands in for an energy sampler that is
# not on this machine (perf's power events, turbostat, nvidia-smi,
# powermetrics), for tests/sh/record-energy.sh; installed under the
# sampler's name.  It writes its argv to $FAKE_ARGV, then prints the lines
# the real tool documents (energy-method.md §2, energy-formats.md §4-6,
# formats.md §1) every interval, at the right times: the package draws
# $FAKE_IDLE W, or $FAKE_BUSY W while a wrk started by the same erg runs.  It stops
# as the tool does on SIGINT/SIGTERM (perf writes the short last
# interval) and writes the signal's name to $FAKE_ARGV.stop ($FAKE_DEAF=1: it ignores
# them).  $FAKE_FAIL: print that on stderr and exit 1 at once;
# $FAKE_DIE=FILE: exit 3 once FILE (the run's timeline) holds a
# measurementStart event: after erg's check of its sampler before the
# first measurement and before the one before the next, whatever the load
# delays (a time from the sampler's start is not: erg's own start can
# take longer than that on a loaded machine).
import os, plistlib, signal, sys, time, datetime

tool = os.path.basename(sys.argv[0])
args = sys.argv[1:]
if args in (["--version"], ["-v"]):
    print(tool, "9.9-fake")
    sys.exit(0)
with open(os.environ["FAKE_ARGV"], "w") as f:
    f.write("\n".join([tool] + args) + "\n")
if os.environ.get("FAKE_FAIL"):
    sys.stderr.write(os.environ["FAKE_FAIL"] + "\n")
    sys.exit(1)
die = os.environ.get("FAKE_DIE")

def started():
    try:
        return '"event":"measurementStart"' in open(die).read()
    except OSError:
        return False
idle, busy = float(os.environ["FAKE_IDLE"]), float(os.environ["FAKE_BUSY"])

def opt(name):
    return args[args.index(name) + 1]

def ppid(pid):
    st = open("/proc/%d/stat" % pid).read()
    return int(st[st.rindex(")") + 2:].split()[1])

# erg runs its sampler under a guardian, a fork of itself
erg = os.getppid()
if os.readlink("/proc/%d/exe" % erg) == os.readlink("/proc/%d/exe" % ppid(erg)):
    erg = ppid(erg)

def watts():
    # a wrk of the erg that started this sampler (other tests may run
    # their own on this machine)
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                st = open("/proc/%s/stat" % p).read()
            except OSError:
                continue
            name, rest = st[st.index("(") + 1:st.rindex(")")], st[st.rindex(")") + 2:].split()
            if name == "wrk" and int(rest[1]) == erg:
                return busy
    return idle

stop = []
def on_stop(sig, frame):
    # which signal stopped it, for the test: erg's must arrive (a sampler
    # that is killed instead loses its last lines)
    with open(os.environ["FAKE_ARGV"] + ".stop", "w") as f:
        f.write(signal.Signals(sig).name + "\n")
    stop.append(1)
if os.environ.get("FAKE_DEAF"):
    on_stop = signal.SIG_IGN
signal.signal(signal.SIGINT, on_stop)
signal.signal(signal.SIGTERM, on_stop)
if tool == "turbostat":
    iv = float(opt("--interval"))
    out = sys.stderr
elif tool == "perf":
    iv = float(opt("-I")) / 1000
    out = open(opt("-o"), "w")
elif tool == "nvidia-smi":
    iv = float(opt("-lms")) / 1000
    out = sys.stdout
else:
    iv = float(opt("-i")) / 1000
    out = sys.stdout.buffer
t0 = time.monotonic()
if tool == "perf":
    # perf counts from its start, right after exec: so does this one
    # (python itself takes a while to start on a loaded machine)
    ticks = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19])
    age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    t0 -= max(0.0, age)
prev = t0
if tool == "perf":
    out.write("# started on %s\n\n" % time.ctime())
elif tool == "turbostat":
    out.write("Time_Of_Day_Seconds\tPkgWatt\tCorWatt\n")
elif tool == "nvidia-smi":
    out.write("timestamp, index, power.draw [W]\n")
out.flush()
n = 0
while True:
    n += 1
    nxt = t0 + n * iv
    # the power over the interval: sampled along it
    w, k = 0.0, 0
    while time.monotonic() < nxt and not stop:
        w += watts()
        k += 1
        time.sleep(min(0.02, max(0, nxt - time.monotonic())))
    now = time.monotonic()
    w = w / k if k else watts()
    dt = now - prev
    prev = now
    if tool == "perf":
        out.write("%14.9f,%.2f,Joules,power/energy-pkg/,%d,100.00,,\n" % (now - t0, w * dt,
                                                                           int(dt * 1e9)))
    elif tool == "turbostat":
        out.write("%.6f\t%.2f\t%.2f\n" % (time.time(), w, w / 2))
    elif tool == "nvidia-smi":
        d = datetime.datetime.now()
        out.write("%s.%03d, 0, %.2f W\n" % (d.strftime("%Y/%m/%d %H:%M:%S"),
                                            d.microsecond // 1000, w))
    else:
        doc = {"hw_model": "Mac14,14", "elapsed_ns": int(dt * 1e9),
               "timestamp": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None),
               "processor": {"cpu_energy": int(round(w * dt * 1000)), "gpu_energy": 0,
                             "ane_energy": 0}}
        if n == 1:
            # real samples run to hundreds of KB: the first is larger
            # than one read of it
            doc["padding"] = "x" * 100000
        out.write(plistlib.dumps(doc) + b"\0")
    out.flush()
    if stop:
        sys.exit(0)
    if die and started():
        sys.exit(3)
