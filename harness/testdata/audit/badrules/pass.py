#!/usr/bin/env python3
"""Adversarial pass over the rule guard (305 cases): each case run as a real
process of the harness test binary (KNIGHTWALK_BE_MAIN=1, the misbehaving
rules of this package registered), classified by outcome; the counts by
(kind, outcome) end the output. A bad rule's case is ok when it exits 1
within 5 s naming the rule, with no stack trace and nothing left in OUT; a
signal case when SIGINT or SIGTERM after 1 s ends it with exit 1; a
control (an honest rule) when no guard error appears.

    go test -c -o /tmp/harness.test ./harness
    python3 harness/testdata/audit/badrules/pass.py /tmp/harness.test
"""
import os, subprocess, sys, tempfile, time, signal, shutil, collections, re
BIN = sys.argv[1]
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
bad = ["twice","off-board","not-knight","visited","panic","nil","new-panics","sleep","stateful-random","rand","hidden-state"]
def cmds(r, rule):
    y = f"testdata/audit/bad/{r}-walks.yaml"
    out = [
        ["run", y, "--out", "OUT/r"], ["run", y, "--out", "OUT/r", "--workers", "1"], ["run", y, "--out", "OUT/r", "--workers", "4"],
        ["run", y, "--dry-run"], ["run", y, "--out", "OUT/r", "--shard", "0/2"], ["validate", y],
        ["exact", "--board", "5x5", "--rule", rule, "--start", "a1"], ["exact", "--board", "5x5", "--rule", rule, "--start", "c3", "--workers", "2"],
        ["exact", "--board", "5x5", "--rule", rule, "--start", "e5", "--spill", "OUT"], ["exact", "--board", "4x5", "--rule", rule, "--start", "a1", "--format", "parquet", "--out", "OUT/x.parquet"],
        ["exact", "--board", "5x5", "--rule", rule, "--start", "b2", "--bounds"],
        ["rare", "--board", "6x6", "--rule", rule, "--start", "a1", "--particles", "50", "--replicates", "2"],
        ["rare", "--board", "8x8", "--rule", rule, "--start", "a1", "--particles", "20", "--replicates", "2", "--plain", "100"],
        ["rare", "--board", "6x6", "--rule", rule, "--start", "c3", "--levels", "5,10", "--particles", "20", "--replicates", "2"],
        ["tour", "--board", "6x6", "--rule", rule, "--start", "a1"], ["tour", "--board", "8x8", "--rule", rule, "--start", "d4", "--format", "json"],
        ["tour", "--board", "6x6", "--rule", "backtrack/"+rule, "--start", "a1"], ["tour", "--board", "6x6", "--rule", "backtrack/closed/"+rule, "--start", "a1"],
        ["tour", "--board", "3x4", "--rule", rule, "--start", "a1"],
    ]
    if r != "rand":
        out.append(["run", f"testdata/audit/bad/{r}-splitting.yaml", "--out", "OUT/r"])
    return out
cases = []
for r in bad:
    for c in cmds(r, "bad/"+r):
        cases.append(("bad", r, c, {}, None))
    cases.append(("bad", r, ["run", f"testdata/audit/bad/{r}-walks.yaml", "--out", "OUT/r"], {"KNIGHTWALK_RULE_TIMEOUT": "500ms"}, None))
# stateful-random with exact: auto (the audit's case)
cases.append(("bad", "stateful-random", ["run", "testdata/audit/bad/stateful-random-auto.yaml", "--out", "OUT/r"], {}, None))
cases.append(("bad", "stateful-random", ["validate", "testdata/audit/bad/stateful-random-auto.yaml"], {}, None))
# signals: a rule blocked early (call 100), no call limit: SIGINT and SIGTERM after 1 s
for sig in (signal.SIGINT, signal.SIGTERM):
    for c in cmds("sleep-late", "bad/sleep-late"):
        if c[0] == "validate":
            continue
        at = "5" if c[0] == "tour" else "100"  # a tour is one walk: block in its first use
        cases.append(("signal", "sleep-late", c, {"KNIGHTWALK_BAD_SLEEP": at, "KNIGHTWALK_RULE_TIMEOUT": "0"}, sig))
# controls: the same commands, the rule honest (never blocks): no guard error may appear
for c in cmds("sleep-late", "bad/sleep-late"):
    cases.append(("control", "sleep-late", c, {"KNIGHTWALK_BAD_SLEEP": "0"}, None))
for c in cmds("sleep-late", "squirrel-cull"):
    if "testdata/audit/bad/sleep-late" in " ".join(c):
        continue
    cases.append(("control", "squirrel-cull", c, {}, None))
# bad environment
cases.append(("env", "", ["exact", "--board", "5x5", "--rule", "bad/sleep", "--start", "a1"], {"KNIGHTWALK_RULE_TIMEOUT": "soon"}, None))
cases.append(("env", "", ["exact", "--board", "5x5", "--rule", "bad/sleep", "--start", "a1"], {"KNIGHTWALK_RULE_TIMEOUT": "-1s"}, None))

counts = collections.Counter()
rows = []
for kind, r, c, env, sig in cases:
    out = tempfile.mkdtemp()
    args = [a.replace("OUT", out) for a in c]
    e = dict(os.environ, KNIGHTWALK_BE_MAIN="1", KNIGHTWALK_BAD_RULES="1", **env)
    t0 = time.time()
    p = subprocess.Popen([BIN] + args, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if sig:
        time.sleep(1)
        p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=10)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill(); _, err = p.communicate(); rc = -9
    took = time.time() - t0
    left = [x for x in os.listdir(out)]
    shutil.rmtree(out, ignore_errors=True)
    err = "\n".join(l for l in err.splitlines() if "carries no VCS information" not in l)
    stack = bool(re.search(r"^(goroutine |panic: )", err, re.M))
    guard = re.search(r"rule (backtrack/(closed/)?)?bad/[a-z-]+:|squirrel-cull:", err)
    limit = 5
    if stack or rc == 2 and kind != "control":
        o = "panic"
    elif rc == 2:
        o = "refused (usage)"
    elif rc == -9 or took > limit:
        o = "runaway"
    elif kind == "bad":
        if rc == 0 and guard:
            o = "exit 0 after failure"
        elif rc == 0:
            o = "silent wrong"
        elif not guard or ("bad/" + r) not in err:
            o = "confusing"
        elif left:
            o = "wrote"
        else:
            o = "ok"
    elif kind == "signal":
        if rc == 0:
            o = "silent wrong"  # it should have been interrupted
        elif "interrupted by a signal" in err or "cancelled" in err:
            o = "ok"
        else:
            o = "confusing"
    elif kind == "control":
        o = "ok" if not re.search(r"has not returned|panicked|answered \{|returned .* twice|off the board|not a knight|visited already|nil policy|not registered Deterministic", err) else "false alarm"
        if c[0] in ("tour",) and rc == 1 and "not a full tour" not in err and o == "ok" and "keeps state" not in err and "is stated for" not in err and "closed tour" not in err:
            o = "confusing"
    else:
        o = "ok" if rc == 1 and "KNIGHTWALK_RULE_TIMEOUT" in err else "confusing"
    counts[(kind, o)] += 1
    rows.append(f"{kind}\t{o}\t{rc}\t{took:.1f}s\t{' '.join(k+'='+v for k,v in env.items())} {' '.join(c)}\t{err[:230]!r}")
    print(rows[-1], flush=True)
print("\nTOTAL", len(cases))
for k, v in sorted(counts.items()):
    print(k, v)
